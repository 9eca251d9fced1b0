import WavelengthCore

/// A station's audience for its studio screen: the count now, by kind, the
/// per-minute series, and the day so far.
public struct AudienceView: Sendable, Codable, Equatable {
    /// People listening now, each once (app and stream together).
    public var listeners: Int
    /// Presences by kind: app connections, stream players; relays and bots
    /// counted apart, never in `listeners`.
    public var app: Int
    public var stream: Int
    public var relays: Int
    public var bots: Int
    /// The minutes asked for, oldest first; a minute nobody listened in is absent.
    public var minutes: [ListenerMinute]
    /// Since the start of today in the asked time zone.
    public var today: AudienceDay
    public var serverTime: EpochMillis

    public init(
        counts: Audience.Counts, minutes: [ListenerMinute], today: AudienceDay, serverTime: EpochMillis
    ) {
        self.listeners = counts.listeners
        self.app = counts.app
        self.stream = counts.stream
        self.relays = counts.relays
        self.bots = counts.bots
        self.minutes = minutes
        self.today = today
        self.serverTime = serverTime
    }
}

/// A day's audience, summed from its minutes.
public struct AudienceDay: Sendable, Codable, Equatable {
    public var peak: Int
    public var listenerMinutes: Double
    /// How long the people who left stayed, on average; nil when nobody left.
    public var averageStayMs: Int64?

    public init(minutes: [ListenerMinute]) {
        peak = minutes.map(\.peak).max() ?? 0
        listenerMinutes = Double(minutes.reduce(0) { $0 + $1.listenerMillis }) / 60_000
        let departures = minutes.reduce(0) { $0 + $1.departures }
        averageStayMs = departures > 0 ? minutes.reduce(0) { $0 + $1.stayMillis } / Int64(departures) : nil
    }
}

/// "What's this song?": the library track a clip of audio comes from.
public struct IdentifyResponse: Sendable, Codable, Equatable {
    /// Nil when the clip matches nothing in the library.
    public var match: IdentifiedTrack?

    public init(match: IdentifiedTrack?) {
        self.match = match
    }

    enum CodingKeys: String, CodingKey { case match }

    /// "Not in the library" is said as `"match": null`, not by leaving it out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(match, forKey: .match)
    }
}

public struct IdentifiedTrack: Sendable, Codable, Equatable {
    public var track: TrackSummary
    /// Where in the track the clip starts; absent when the clip fits
    /// several places in it equally (a repeated chorus).
    public var offsetMs: Int64?
    /// The share of fingerprint bits that agree (1 is identical).
    public var similarity: Double

    public init(track: TrackSummary, offsetMs: Int64?, similarity: Double) {
        self.track = track
        self.offsetMs = offsetMs
        self.similarity = similarity
    }
}

/// A station's stream as a link any player opens, with the token that lets
/// it in when the station isn't public (nil token: it needs none).
public struct StreamLink: Sendable, Codable, Equatable {
    public var mp3: String
    public var m3u: String
    public var pls: String
    public var token: String?

    public init(mp3: String, m3u: String, pls: String, token: String?) {
        self.mp3 = mp3
        self.m3u = m3u
        self.pls = pls
        self.token = token
    }
}
