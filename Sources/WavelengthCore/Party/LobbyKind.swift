/// Seed 004's lobby types. Each is a preset of the room's settings, chosen
/// for where the room is; the host can change any single setting after.
public enum LobbyKind: String, Sendable, Codable, CaseIterable {
    /// A house party: chat and lyrics on, the level left to the speakers.
    case party
    /// A gym: no chat or lyrics to read mid-set, short high-energy tracks,
    /// and the room votes the level (music competes with the machines).
    case gym
    /// A car: nothing to read for the driver but lyrics to sing along, few
    /// requests each (the passengers are few), the level by vote.
    case car
    /// A radio-style lobby: chat on, one request each, long memory for
    /// repeats, the level steady.
    case radio

    /// `settings` with this type's defaults (the loudness target and the
    /// skip threshold are the host's and stay).
    public func preset(_ settings: RequestSettings) -> RequestSettings {
        var next = settings
        next.kind = self
        switch self {
        case .party:
            next.chat = true
            next.lyrics = true
            next.volumeVoting = false
            next.maxPendingPerPerson = 3
            next.maxTrackMillis = 10 * 60_000
            next.noRepeatWithin = 10
        case .gym:
            next.chat = false
            next.lyrics = false
            next.volumeVoting = true
            next.maxPendingPerPerson = 3
            next.maxTrackMillis = 6 * 60_000
            next.noRepeatWithin = 25
        case .car:
            next.chat = false
            next.lyrics = true
            next.volumeVoting = true
            next.maxPendingPerPerson = 2
            next.maxTrackMillis = 10 * 60_000
            next.noRepeatWithin = 10
        case .radio:
            next.chat = true
            next.lyrics = false
            next.volumeVoting = false
            next.maxPendingPerPerson = 1
            next.maxTrackMillis = 15 * 60_000
            next.noRepeatWithin = 50
        }
        return next
    }
}
