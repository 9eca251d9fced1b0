/// How fast one person may send the party's commands (requests, votes,
/// thumbs): at most `limit` in any `window`. A flood of votes from one
/// phone is refused with `tooFast` and changes nothing, so it can't make
/// the station save and broadcast the queue hundreds of times a second.
public struct PartyPace: Sendable, Equatable {
    public static let limit = 20
    public static let window: EpochMillis = 10_000

    /// Each person's recent commands, oldest first (at most `limit` each).
    private var recent: [String: [EpochMillis]] = [:]

    public init() {}

    /// Counts a command from `person` at `now`, or refuses it.
    public mutating func admit(_ person: String, at now: EpochMillis) throws(RequestError) {
        var times = (recent[person] ?? []).filter { now - $0 < Self.window }
        guard times.count < Self.limit else {
            recent[person] = times
            throw .tooFast
        }
        times.append(now)
        recent[person] = times
        // People who went quiet are forgotten, so this stays as small as the
        // room that is voting right now.
        if recent.count > 2_000 { recent = recent.filter { $0.value.contains { now - $0 < Self.window } } }
    }
}
