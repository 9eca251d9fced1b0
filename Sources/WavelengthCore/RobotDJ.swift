/// Programs a station from its song pool while someone listens.
///
/// Picks follow what the room has liked (`choose`, with `TasteModel`), and
/// are never repetitive: a track doesn't come back within
/// `repeatWindow` picks, and an artist doesn't play twice in a row, whenever
/// the pool is big enough to allow it.
public struct RobotDJ: Sendable, Equatable {
    /// Fill until this much is scheduled ahead...
    public var horizon: Int64
    /// ...or this many entries are lined up, whichever comes first.
    public var minimumUpcoming: Int
    /// How many recent plays a track must wait before it can return.
    public var repeatWindow: Int
    /// The share of picks made uniformly at random, to keep exploring.
    public var explorationRate: Double
    /// Tracks the robot leaves for someone else to play: songs a guest asked
    /// for and that wait their turn (`StationRules` sets it).
    public var avoiding: Set<TrackID> = []

    public init(
        horizon: Int64 = 30 * 60 * 1000, minimumUpcoming: Int = 3, repeatWindow: Int = 20,
        explorationRate: Double = 0.1
    ) {
        self.horizon = horizon
        self.minimumUpcoming = minimumUpcoming
        self.repeatWindow = repeatWindow
        self.explorationRate = explorationRate
    }

    public func needsFill(_ timeline: Timeline, at now: EpochMillis) -> Bool {
        timeline.upcoming(at: now).count < minimumUpcoming && timeline.scheduledAhead(at: now) < horizon
    }

    /// Chooses the next track uniformly among the allowed ones (the
    /// baseline the learning pick is measured against).
    ///
    /// - Parameters:
    ///   - recent: track ids played or scheduled most recently, oldest first.
    ///   - lastArtist: the artist of the entry this pick will follow.
    public func pick(
        from pool: [PoolTrack], recent: [TrackID], lastArtist: String?,
        using rng: inout some RandomNumberGenerator
    ) -> PoolTrack? {
        candidates(from: pool, recent: recent, lastArtist: lastArtist).randomElement(using: &rng)
    }

    /// Chooses the next track for the room: the allowed track whose appeal,
    /// drawn from the taste model's beliefs, is highest (Thompson
    /// sampling), except that one pick in `explorationRate` is uniform so a
    /// station never narrows to what it already knows. With nothing learned
    /// yet every pick is uniform.
    public func choose(
        from pool: [PoolTrack], recent: [TrackID], lastArtist: String?, taste: TasteModel,
        using rng: inout some RandomNumberGenerator
    ) -> RobotPick? {
        let allowed = candidates(from: pool, recent: recent, lastArtist: lastArtist)
        guard !allowed.isEmpty else { return nil }
        if taste.isEmpty || Double.random(in: 0..<1, using: &rng) < explorationRate {
            return allowed.randomElement(using: &rng).map { RobotPick(track: $0, why: nil) }
        }
        var drawn: [String: Double] = [:]
        var best: (track: PoolTrack, score: Double)?
        for track in allowed {
            let score = taste.sample(track.tasteFeatures, drawn: &drawn, using: &rng)
            if best == nil || score > best!.score { best = (track, score) }
        }
        guard let best else { return nil }
        let reason = PickReason.explain(taste.strongestLiked(best.track.tasteFeatures), track: best.track)
        return RobotPick(track: best.track, why: reason)
    }

    /// The tracks allowed next: playable, not played within the repeat
    /// window, not `avoiding`, and by another artist than the last whenever
    /// that leaves a choice. The window shrinks with the pool so a small
    /// pool still has choices; when every track it allows is avoided, there
    /// is no pick (the songs avoided are on their way by another path).
    func candidates(from pool: [PoolTrack], recent: [TrackID], lastArtist: String?) -> [PoolTrack] {
        let playable = pool.filter { $0.duration > 0 }
        guard !playable.isEmpty else { return [] }
        let window = min(repeatWindow, playable.count - 1)
        let blocked = Set(recent.suffix(window)).union(avoiding)
        var candidates = playable.filter { !blocked.contains($0.id) }
        if let lastArtist {
            let otherArtists = candidates.filter { $0.artist != lastArtist }
            if !otherArtists.isEmpty { candidates = otherArtists }
        }
        return candidates
    }

    /// The pool to draw from: the station's own, or the fallback when the
    /// station's pool is empty.
    public func effectivePool(_ pool: [PoolTrack], fallback: [PoolTrack]) -> [PoolTrack] {
        pool.contains { $0.duration > 0 } ? pool : fallback
    }
}

/// A robot pick, with the one line that says why (nil for an exploring or
/// uninformed pick).
public struct RobotPick: Sendable, Equatable {
    public var track: PoolTrack
    public var why: String?
}
