/// Emoji reactions to the moment of the song that plays: each one joins a
/// short burst everyone sees on the now-playing art, and the song's totals.
public struct Reactions: Sendable, Equatable {
    /// The reactions offered; anything else is refused, so a reaction is
    /// never free text.
    public static let palette = ["🔥", "❤️", "🙌", "😂", "😮", "💃"]
    /// The ones the robot DJ reads as a thumb up (a laugh or a gasp says
    /// nothing about the song).
    public static let warm: Set<String> = ["🔥", "❤️", "🙌", "💃"]
    /// Per person (or anonymous connection): at most this many in `window`.
    public static let limit = 10
    public static let window: EpochMillis = 5_000
    /// Reactions are gathered this long and sent as one burst, so a room of
    /// hundreds tapping at once costs each listener a few messages a second.
    public static let burstMillis: EpochMillis = 250

    /// The entry the totals are for.
    public private(set) var entryID: EntryID?
    public private(set) var trackID: TrackID?
    public private(set) var totals: [String: Int] = [:]
    /// Reactions not yet sent as a burst.
    public private(set) var pending: [String: Int] = [:]
    private var recentBy: [String: [EpochMillis]] = [:]

    public init() {}

    /// Takes one reaction to `entry` (the one playing) from `key`. Answers
    /// true when it starts a new burst (the caller times the burst).
    public mutating func react(_ emoji: String, on entry: TimelineEntry, by key: String, at now: EpochMillis)
        throws(ChatError) -> Bool
    {
        guard Self.palette.contains(emoji) else { throw .unknownReaction }
        let mine = (recentBy[key] ?? []).filter { $0 > now - Self.window }
        guard mine.count < Self.limit else {
            throw .tooFast(limit: Self.limit, windowSeconds: Int(Self.window / 1000), retryAt: mine[0] + Self.window)
        }
        recentBy[key] = mine + [now]
        if recentBy.count > 512 { recentBy = recentBy.filter { ($0.value.last ?? 0) > now - Self.window } }
        if entryID != entry.id {
            entryID = entry.id
            trackID = entry.trackID
            totals = [:]
            pending = [:]
        }
        let starts = pending.isEmpty
        pending[emoji, default: 0] += 1
        totals[emoji, default: 0] += 1
        return starts
    }

    /// Takes up the totals kept for `entryID` (the song playing when the
    /// station was loaded again, after a restart), so they count on from
    /// there. Only before any reaction is taken: storage adds each burst to
    /// what it holds, so what is shown must start from the same place.
    public mutating func resume(entryID: EntryID, trackID: TrackID, totals: [String: Int]) {
        guard self.entryID == nil else { return }
        self.entryID = entryID
        self.trackID = trackID
        self.totals = totals.filter { Self.palette.contains($0.key) && $0.value > 0 }
    }

    /// The burst to send: what came since the last one, with the totals.
    public mutating func flush() -> Burst? {
        guard let entryID, let trackID, !pending.isEmpty else { return nil }
        defer { pending = [:] }
        return Burst(entryID: entryID, trackID: trackID, burst: pending, totals: totals)
    }

    public struct Burst: Sendable, Equatable {
        public var entryID: EntryID
        public var trackID: TrackID
        public var burst: [String: Int]
        public var totals: [String: Int]

        public init(entryID: EntryID, trackID: TrackID, burst: [String: Int], totals: [String: Int]) {
            self.entryID = entryID
            self.trackID = trackID
            self.burst = burst
            self.totals = totals
        }
    }
}
