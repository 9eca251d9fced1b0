import WavelengthCore

/// Limits on a show's fields; the server refuses anything outside them.
public enum ScheduleLimits {
    public static let nameLength = 1...80
    public static let descriptionLength = 0...2_000
    public static let genreLength = 0...60
    public static let maxHosts = 10
    public static let durationMinutes = 5...720
    public static let interval = 1...12
    public static let maxExceptions = 500
    /// The most tracks in a show's own playlist.
    public static let maxPoolTracks = 1_000
    /// The largest body a valid show spec makes: its pool of 1,000 ids of up
    /// to 64 bytes, 500 cancelled and 500 moved dates, and its words.
    public static let maxSpecBytes = 160 * 1_024
    public static let reminderLeadMinutes = 1...120
    /// The most reminders one person keeps.
    public static let maxReminders = 200
    /// The longest window one schedule request covers.
    public static let maxWindowDays = 62
}

/// A show as an editor sends it (POST and PUT).
public struct ShowSpec: Sendable, Codable, Equatable {
    public var name: String
    public var description: String?
    public var genre: String?
    public var artTrackID: TrackID?
    /// Handles of people with accounts.
    public var hosts: [String]?
    public var timeZone: String
    /// "22:00", in the show's zone.
    public var startTime: String
    public var durationMinutes: Int
    public var `repeat`: RepeatSpec
    /// "2026-09-22": the first day an episode may air.
    public var seasonStart: String
    public var seasonEnd: String?
    /// Days ("2026-11-24") of episodes that won't air.
    public var cancelled: [String]?
    public var moved: [MovedSpec]?
    /// Track ids the robot DJ plays from while the show airs with no DJ
    /// live; empty or absent: the station's own programming.
    public var pool: [TrackID]?

    public init(
        name: String, description: String? = nil, genre: String? = nil, artTrackID: TrackID? = nil,
        hosts: [String]? = nil, timeZone: String, startTime: String, durationMinutes: Int, repeat: RepeatSpec,
        seasonStart: String, seasonEnd: String? = nil, cancelled: [String]? = nil, moved: [MovedSpec]? = nil,
        pool: [TrackID]? = nil
    ) {
        self.name = name
        self.description = description
        self.genre = genre
        self.artTrackID = artTrackID
        self.hosts = hosts
        self.timeZone = timeZone
        self.startTime = startTime
        self.durationMinutes = durationMinutes
        self.repeat = `repeat`
        self.seasonStart = seasonStart
        self.seasonEnd = seasonEnd
        self.cancelled = cancelled
        self.moved = moved
        self.pool = pool
    }

    public struct RepeatSpec: Sendable, Codable, Equatable {
        /// "once", "weekly" or "monthly".
        public var kind: String
        public var interval: Int?
        /// Weekly: "MO"..."SU".
        public var weekdays: [String]?
        public var weekStart: String?
        /// Monthly: the `ordinal`th `weekday` (-1 is the last).
        public var weekday: String?
        public var ordinal: Int?

        public init(
            kind: String, interval: Int? = nil, weekdays: [String]? = nil, weekStart: String? = nil,
            weekday: String? = nil, ordinal: Int? = nil
        ) {
            self.kind = kind
            self.interval = interval
            self.weekdays = weekdays
            self.weekStart = weekStart
            self.weekday = weekday
            self.ordinal = ordinal
        }
    }

    public struct MovedSpec: Sendable, Codable, Equatable {
        /// The day it would have aired.
        public var date: String
        /// "2026-12-02T20:00", in the show's zone.
        public var start: String
        public var durationMinutes: Int?

        public init(date: String, start: String, durationMinutes: Int? = nil) {
            self.date = date
            self.start = start
            self.durationMinutes = durationMinutes
        }
    }
}

public struct HostView: Sendable, Codable, Equatable {
    public var handle: String
    public var displayName: String

    public init(handle: String, displayName: String) {
        self.handle = handle
        self.displayName = displayName
    }
}

/// A show as the server answers it: the spec with hosts by name.
public struct ShowView: Sendable, Codable, Equatable {
    public var id: ShowID
    public var stationID: StationID
    public var name: String
    public var description: String
    public var genre: String
    public var artTrackID: TrackID?
    public var hosts: [HostView]
    public var timeZone: String
    public var startTime: String
    public var durationMinutes: Int
    public var `repeat`: ShowSpec.RepeatSpec
    public var seasonStart: String
    public var seasonEnd: String?
    public var cancelled: [String]
    public var moved: [ShowSpec.MovedSpec]
    public var pool: [TrackID]
    public var calendarURL: String
    public var updatedAt: EpochMillis

    public init(show: Show, hosts: [HostView]) {
        id = show.id
        stationID = show.stationID
        name = show.name
        description = show.description
        genre = show.genre
        artTrackID = show.artTrackID
        self.hosts = hosts
        timeZone = show.timeZone
        startTime = show.startTime.description
        durationMinutes = show.durationMinutes
        switch show.repeats {
        case .once: self.repeat = .init(kind: "once")
        case .weekly(let interval, let weekdays, let weekStart):
            self.repeat = .init(
                kind: "weekly", interval: interval, weekdays: weekdays.sorted().map(\.rawValue),
                weekStart: weekStart.rawValue)
        case .monthly(let interval, let weekday, let ordinal):
            self.repeat = .init(kind: "monthly", interval: interval, weekday: weekday.rawValue, ordinal: ordinal)
        }
        seasonStart = show.seasonStart.description
        seasonEnd = show.seasonEnd?.description
        cancelled = show.cancelled.sorted().map(\.description)
        moved = show.moved.sorted { $0.original < $1.original }.map {
            .init(date: $0.original.description, start: "\($0.date)T\($0.time)", durationMinutes: $0.durationMinutes)
        }
        pool = show.pool
        calendarURL = "/api/stations/\(show.stationID)/shows/\(show.id)/calendar.ics"
        updatedAt = show.updatedAt
    }
}

public struct EpisodeView: Sendable, Codable, Equatable {
    public var showID: ShowID
    public var name: String
    public var genre: String
    public var start: EpochMillis
    public var end: EpochMillis
    public var originalStart: EpochMillis
    public var moved: Bool
    public var hosts: [HostView]

    public init(episode: Episode, show: Show, hosts: [HostView]) {
        showID = episode.showID
        name = show.name
        genre = show.genre
        start = episode.start
        end = episode.end
        originalStart = episode.originalStart
        moved = episode.moved
        self.hosts = hosts
    }
}

public struct ScheduleView: Sendable, Codable, Equatable {
    public var shows: [ShowView]
    public var episodes: [EpisodeView]
    public var now: EpisodeView?
    public var next: EpisodeView?
    public var from: EpochMillis
    public var to: EpochMillis
    public var serverTime: EpochMillis
    public var calendarURL: String
    /// Where to POST for a calendar link of your own, with a token; present
    /// when the station isn't public, so `calendarURL` needs a session that
    /// calendar apps can't send.
    public var calendarLinkURL: String?
    public var canEdit: Bool

    public init(
        shows: [ShowView], episodes: [EpisodeView], now: EpisodeView?, next: EpisodeView?, from: EpochMillis,
        to: EpochMillis, serverTime: EpochMillis, calendarURL: String, calendarLinkURL: String? = nil, canEdit: Bool
    ) {
        self.shows = shows
        self.episodes = episodes
        self.now = now
        self.next = next
        self.from = from
        self.to = to
        self.serverTime = serverTime
        self.calendarURL = calendarURL
        self.calendarLinkURL = calendarLinkURL
        self.canEdit = canEdit
    }
}

public struct ShowPage: Sendable, Codable, Equatable {
    public struct PastEpisode: Sendable, Codable, Equatable {
        public var episode: EpisodeView
        /// What the station played while it aired, oldest first.
        public var plays: [EntryView]
        /// Who listened: the peak, listener-minutes and the average stay.
        public var audience: AudienceDay
        /// The episode's playlist as CSV and M3U.
        public var csvURL: String
        public var m3uURL: String

        public init(episode: EpisodeView, plays: [EntryView], audience: AudienceDay, csvURL: String, m3uURL: String) {
            self.episode = episode
            self.plays = plays
            self.audience = audience
            self.csvURL = csvURL
            self.m3uURL = m3uURL
        }
    }

    public var show: ShowView
    public var upcoming: [EpisodeView]
    public var past: [PastEpisode]
    public var reminded: Bool
    public var canEdit: Bool
    public var serverTime: EpochMillis
    /// As in `ScheduleView`: present when the show's `calendarURL` needs a token.
    public var calendarLinkURL: String?

    public init(
        show: ShowView, upcoming: [EpisodeView], past: [PastEpisode], reminded: Bool, canEdit: Bool,
        serverTime: EpochMillis, calendarLinkURL: String? = nil
    ) {
        self.calendarLinkURL = calendarLinkURL
        self.show = show
        self.upcoming = upcoming
        self.past = past
        self.reminded = reminded
        self.canEdit = canEdit
        self.serverTime = serverTime
    }
}

/// Your own link to a station's calendar feeds. `token` is absent for a
/// public or unlisted station, whose feeds need none; otherwise add
/// `?token=` to any of the station's feeds (a show's too).
public struct CalendarLink: Sendable, Codable, Equatable {
    /// The station's feed, with the token when there is one.
    public var schedule: String
    public var token: String?

    public init(schedule: String, token: String?) {
        self.schedule = schedule
        self.token = token
    }
}

public struct ReminderRequest: Sendable, Codable, Equatable {
    public var leadMinutes: Int?

    public init(leadMinutes: Int? = nil) {
        self.leadMinutes = leadMinutes
    }
}

public struct ReminderView: Sendable, Codable, Equatable {
    public var stationID: StationID
    public var stationName: String
    public var show: ShowView
    public var next: EpisodeView?
    public var leadMinutes: Int

    public init(stationID: StationID, stationName: String, show: ShowView, next: EpisodeView?, leadMinutes: Int) {
        self.stationID = stationID
        self.stationName = stationName
        self.show = show
        self.next = next
        self.leadMinutes = leadMinutes
    }
}

/// A person's stream key: shown whole only when it is made.
public struct StreamKeyView: Sendable, Codable, Equatable {
    /// The key itself, in the answer that made it only.
    public var key: String?
    public var createdAt: EpochMillis?
    /// What to type into broadcast software, with the key in place of KEY.
    public var sourceURL: String?

    public init(key: String?, createdAt: EpochMillis?, sourceURL: String?) {
        self.key = key
        self.createdAt = createdAt
        self.sourceURL = sourceURL
    }
}

/// A station's live source, if one is on the air.
public struct LiveSourceView: Sendable, Codable, Equatable {
    public var onAir: Bool
    public var since: EpochMillis?
    public var name: String?
    public var genre: String?
    public var description: String?
    public var audioInfo: String?
    public var title: String?
    /// Where any player hears it.
    public var listenURL: String?
    /// Where broadcast software connects: icecast://host:port/live/{station}.
    public var sourceURL: String?

    public init(
        onAir: Bool, since: EpochMillis? = nil, name: String? = nil, genre: String? = nil, description: String? = nil,
        audioInfo: String? = nil, title: String? = nil, listenURL: String? = nil, sourceURL: String? = nil
    ) {
        self.onAir = onAir
        self.since = since
        self.name = name
        self.genre = genre
        self.description = description
        self.audioInfo = audioInfo
        self.title = title
        self.listenURL = listenURL
        self.sourceURL = sourceURL
    }
}
