/// A show's stable identity.
public typealias ShowID = String

/// A show on a station's schedule: what it is, who hosts it, and when its
/// episodes air. Episodes are never stored: they follow from the rule, the
/// season and the exceptions, in the show's own time zone (see
/// `Show+Episodes`).
public struct Show: Sendable, Equatable, Codable {
    public var id: ShowID
    public var stationID: StationID
    public var name: String
    public var description: String
    public var genre: String
    /// A library track whose cover art is the show's art.
    public var artTrackID: TrackID?
    /// People with accounts, by id.
    public var hostIDs: [String]
    /// An IANA zone ("America/Los_Angeles").
    public var timeZone: String
    public var startTime: LocalTime
    public var durationMinutes: Int
    public var repeats: ShowRepeat
    /// The first day an episode may air; for a one-off show, its day.
    public var seasonStart: LocalDate
    /// The last day an episode may air, when the season has an end.
    public var seasonEnd: LocalDate?
    /// Episodes that won't air, by the day they would have.
    public var cancelled: [LocalDate]
    /// Episodes that air at another time, by the day they would have.
    public var moved: [MovedEpisode]
    /// What the robot DJ plays while the show airs and no DJ is live: its
    /// playlist or pool. Empty: the station's own programming.
    public var pool: [TrackID]
    public var updatedAt: EpochMillis

    public init(
        id: ShowID, stationID: StationID, name: String, description: String = "", genre: String = "",
        artTrackID: TrackID? = nil, hostIDs: [String] = [], timeZone: String, startTime: LocalTime, durationMinutes: Int,
        repeats: ShowRepeat, seasonStart: LocalDate, seasonEnd: LocalDate? = nil, cancelled: [LocalDate] = [],
        moved: [MovedEpisode] = [], pool: [TrackID] = [], updatedAt: EpochMillis = 0
    ) {
        self.id = id
        self.stationID = stationID
        self.name = name
        self.description = description
        self.genre = genre
        self.artTrackID = artTrackID
        self.hostIDs = hostIDs
        self.timeZone = timeZone
        self.startTime = startTime
        self.durationMinutes = durationMinutes
        self.repeats = repeats
        self.seasonStart = seasonStart
        self.seasonEnd = seasonEnd
        self.cancelled = cancelled
        self.moved = moved
        self.pool = pool
        self.updatedAt = updatedAt
    }
}

extension Show {
    enum CodingKeys: String, CodingKey {
        case id, stationID, name, description, genre, artTrackID, hostIDs, timeZone, startTime, durationMinutes,
            repeats, seasonStart, seasonEnd, cancelled, moved, pool, updatedAt
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try c.decode(ShowID.self, forKey: .id), stationID: try c.decode(StationID.self, forKey: .stationID),
            name: try c.decode(String.self, forKey: .name), description: try c.decode(String.self, forKey: .description),
            genre: try c.decode(String.self, forKey: .genre), artTrackID: try c.decodeIfPresent(TrackID.self, forKey: .artTrackID),
            hostIDs: try c.decode([String].self, forKey: .hostIDs), timeZone: try c.decode(String.self, forKey: .timeZone),
            startTime: try c.decode(LocalTime.self, forKey: .startTime),
            durationMinutes: try c.decode(Int.self, forKey: .durationMinutes),
            repeats: try c.decode(ShowRepeat.self, forKey: .repeats),
            seasonStart: try c.decode(LocalDate.self, forKey: .seasonStart),
            seasonEnd: try c.decodeIfPresent(LocalDate.self, forKey: .seasonEnd),
            cancelled: try c.decode([LocalDate].self, forKey: .cancelled),
            moved: try c.decode([MovedEpisode].self, forKey: .moved),
            // Shows saved before shows had their own programming have none.
            pool: try c.decodeIfPresent([TrackID].self, forKey: .pool) ?? [],
            updatedAt: try c.decode(EpochMillis.self, forKey: .updatedAt))
    }
}

/// How a show's episodes recur, in RFC 5545's terms.
public enum ShowRepeat: Sendable, Equatable, Codable {
    /// One episode, on the season's first day.
    case once
    /// `FREQ=WEEKLY;INTERVAL=n;BYDAY=…;WKST=…`: on these days of every
    /// `interval`th week, weeks counted from the one holding the first
    /// episode and starting on `weekStart`. Alternating weeks are 2.
    case weekly(interval: Int, weekdays: [Weekday], weekStart: Weekday)
    /// `FREQ=MONTHLY;INTERVAL=n;BYDAY=2TU`: the `ordinal`th `weekday` of
    /// every `interval`th month; -1 is the last. A 5th that a month lacks
    /// is skipped, as the RFC says.
    case monthly(interval: Int, weekday: Weekday, ordinal: Int)
}

/// An episode moved to another time.
public struct MovedEpisode: Sendable, Equatable, Codable {
    /// The day it would have aired.
    public var original: LocalDate
    public var date: LocalDate
    public var time: LocalTime
    public var durationMinutes: Int

    public init(original: LocalDate, date: LocalDate, time: LocalTime, durationMinutes: Int) {
        self.original = original
        self.date = date
        self.time = time
        self.durationMinutes = durationMinutes
    }
}

/// One airing of a show.
public struct Episode: Sendable, Equatable {
    public var showID: ShowID
    public var start: EpochMillis
    public var end: EpochMillis
    /// When it would have started had it not been moved.
    public var originalStart: EpochMillis
    /// The day the rule gave it, in the show's zone.
    public var originalDate: LocalDate
    public var moved: Bool

    public init(
        showID: ShowID, start: EpochMillis, end: EpochMillis, originalStart: EpochMillis, originalDate: LocalDate,
        moved: Bool
    ) {
        self.showID = showID
        self.start = start
        self.end = end
        self.originalStart = originalStart
        self.originalDate = originalDate
        self.moved = moved
    }

    public func overlaps(_ other: Episode) -> Bool { start < other.end && other.start < end }
}
