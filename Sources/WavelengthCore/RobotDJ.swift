/// Programs a station from its song pool while someone listens.
///
/// Picks are random but not repetitive: a track doesn't come back within
/// `repeatWindow` picks, and an artist doesn't play twice in a row, whenever
/// the pool is big enough to allow it.
public struct RobotDJ: Sendable, Equatable {
    /// Fill until this much is scheduled ahead...
    public var horizon: Int64
    /// ...or this many entries are lined up, whichever comes first.
    public var minimumUpcoming: Int
    /// How many recent plays a track must wait before it can return.
    public var repeatWindow: Int

    public init(horizon: Int64 = 30 * 60 * 1000, minimumUpcoming: Int = 3, repeatWindow: Int = 20) {
        self.horizon = horizon
        self.minimumUpcoming = minimumUpcoming
        self.repeatWindow = repeatWindow
    }

    public func needsFill(_ timeline: Timeline, at now: EpochMillis) -> Bool {
        timeline.upcoming(at: now).count < minimumUpcoming && timeline.scheduledAhead(at: now) < horizon
    }

    /// Chooses the next track.
    ///
    /// - Parameters:
    ///   - recent: track ids played or scheduled most recently, oldest first.
    ///   - lastArtist: the artist of the entry this pick will follow.
    public func pick(
        from pool: [PoolTrack], recent: [TrackID], lastArtist: String?,
        using rng: inout some RandomNumberGenerator
    ) -> PoolTrack? {
        let playable = pool.filter { $0.duration > 0 }
        guard !playable.isEmpty else { return nil }
        // The window shrinks with the pool so a small pool still has choices.
        let window = min(repeatWindow, playable.count - 1)
        let blocked = Set(recent.suffix(window))
        var candidates = playable.filter { !blocked.contains($0.id) }
        if candidates.isEmpty { candidates = playable }
        if let lastArtist {
            let otherArtists = candidates.filter { $0.artist != lastArtist }
            if !otherArtists.isEmpty { candidates = otherArtists }
        }
        return candidates.randomElement(using: &rng)
    }

    /// The pool to draw from: the station's own, or the fallback when the
    /// station's pool is empty.
    public func effectivePool(_ pool: [PoolTrack], fallback: [PoolTrack]) -> [PoolTrack] {
        pool.contains { $0.duration > 0 } ? pool : fallback
    }
}
