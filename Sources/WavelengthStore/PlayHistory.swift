import WavelengthCore

/// One play in a station's history: the entry as it played, and how many
/// people were listening (the most at once while it played; nil for plays
/// kept before counts were).
public struct Play: Sendable, Equatable {
    public var entry: TimelineEntry
    public var listeners: Int?

    public init(entry: TimelineEntry, listeners: Int?) {
        self.entry = entry
        self.listeners = listeners
    }
}

/// Which plays to read, newest first.
public struct PlaySearch: Sendable, Equatable {
    /// Plays that started before this instant (paging backwards).
    public var before: EpochMillis?
    /// Plays that started at or after this instant.
    public var from: EpochMillis?
    /// Every word must prefix-match the track's title, artist or album.
    public var text: String?
    public var limit: Int

    public init(before: EpochMillis? = nil, from: EpochMillis? = nil, text: String? = nil, limit: Int) {
        self.before = before
        self.from = from
        self.text = text
        self.limit = limit
    }
}

/// A station's plays and its per-minute audience, kept apart from the
/// station's own state: what history and statistics are read from.
public protocol HistoryRepository: Sendable {
    /// Plays matching `search`, most recent first.
    func plays(stationID: StationID, matching search: PlaySearch) async throws -> [Play]
    /// The play that was on at `instant`, if one was.
    func play(stationID: StationID, at instant: EpochMillis) async throws -> Play?
    /// Adds minutes to the station's audience series; a minute kept before
    /// is merged (the higher peak, the listening time and departures added).
    func recordAudience(stationID: StationID, minutes: [ListenerMinute]) async throws
    /// The minutes that began in `from..<to`, oldest first.
    func audience(stationID: StationID, from: EpochMillis, to: EpochMillis) async throws -> [ListenerMinute]
}
