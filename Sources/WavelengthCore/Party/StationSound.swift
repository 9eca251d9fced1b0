/// How loud the station plays: every track brought to `target` LUFS, then
/// moved by the room's `levelDb` from `since` on. Players apply
/// `Loudness.playbackGain(trackGain:headroom:offset:)` with `offsetDb`.
public struct StationSound: Sendable, Equatable {
    public var target: Double
    public var levelDb: Double
    public var since: EpochMillis
    public var reason: String?

    public init(target: Double, levelDb: Double, since: EpochMillis, reason: String?) {
        self.target = target
        self.levelDb = levelDb
        self.since = since
        self.reason = reason
    }

    /// The change from each track's gain at the default target.
    public var offsetDb: Double { target - Loudness.defaultTarget + levelDb }
}

extension PartyState {
    public var sound: StationSound {
        StationSound(
            target: settings.loudnessTarget, levelDb: lobby.volume.levelDb, since: lobby.volume.since,
            reason: lobby.volume.reason)
    }
}
