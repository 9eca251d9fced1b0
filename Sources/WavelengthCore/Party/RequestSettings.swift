/// What a host allows at a party (seed 001), each with a default that suits
/// a room of friends.
public struct RequestSettings: Sendable, Equatable, Codable {
    /// Whether listeners may request at all.
    public var open: Bool
    /// Whether requests must come from the station's song pool (the host's
    /// playlist) rather than the whole library.
    public var poolOnly: Bool
    /// The most requests one person may have waiting at once.
    public var maxPendingPerPerson: Int
    /// The longest track that may be requested; nil for any length.
    public var maxTrackMillis: Int64?
    /// A track played in the last this-many plays can't be requested again.
    public var noRepeatWithin: Int
    /// Whether listeners see vote counts. Off by default, as in seed 001, so
    /// a host reordering the queue does not look strange.
    public var showVoteCounts: Bool
    /// How many listeners it takes to skip the current song.
    public var skip: SkipThreshold

    public init(
        open: Bool = true, poolOnly: Bool = false, maxPendingPerPerson: Int = 3, maxTrackMillis: Int64? = 10 * 60_000,
        noRepeatWithin: Int = 10, showVoteCounts: Bool = false, skip: SkipThreshold = .automatic
    ) {
        self.open = open
        self.poolOnly = poolOnly
        self.maxPendingPerPerson = maxPendingPerPerson
        self.maxTrackMillis = maxTrackMillis
        self.noRepeatWithin = noRepeatWithin
        self.showVoteCounts = showVoteCounts
        self.skip = skip
    }

    public static let pendingPerPersonRange = 1...20
    public static let trackMillisRange: ClosedRange<Int64> = 30_000...(60 * 60_000)
    public static let noRepeatRange = 0...200

    /// Refuses settings outside the ranges a host can choose from.
    public func validated() throws(RequestError) -> RequestSettings {
        guard Self.pendingPerPersonRange.contains(maxPendingPerPerson) else {
            throw .invalidSettings("The most requests per person must be 1–20.")
        }
        if let maxTrackMillis, !Self.trackMillisRange.contains(maxTrackMillis) {
            throw .invalidSettings("The longest track must be between 30 seconds and 60 minutes.")
        }
        guard Self.noRepeatRange.contains(noRepeatWithin) else {
            throw .invalidSettings("No repeats within must be 0–200 plays.")
        }
        _ = try skip.validated()
        return self
    }
}
