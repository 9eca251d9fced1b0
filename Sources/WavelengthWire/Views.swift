@_exported import WavelengthCore

/// A library track as clients see it: its tags, flattened into the JSON
/// (see `KnownTracks.swift` for its coding), and where to fetch it.
@dynamicMemberLookup
public struct TrackSummary: Sendable, Equatable {
    public var id: TrackID
    public var tags: TrackTags
    public var format: String
    /// Where to fetch the audio (Range requests supported).
    public var audioURL: String
    /// Where to fetch cover art, when there is any.
    public var artworkURL: String?
    /// The gain in dB that brings the track to the target loudness (−14
    /// LUFS) without its true peak passing −1 dBTP; absent until the
    /// background analysis measured it. Players apply it, so every track
    /// plays at one loudness.
    public var gainDb: Double?
    /// The most gain the track takes before its true peak passes −1 dBTP
    /// (a louder station target or level stops there); absent until measured.
    public var headroomDb: Double?
    /// Beats per minute as aubio measured them; absent until analysed, or
    /// when the track has no steady beat.
    public var tempo: Double?

    public init(
        id: TrackID, tags: TrackTags, format: String, audioURL: String, artworkURL: String?, gainDb: Double? = nil,
        headroomDb: Double? = nil, tempo: Double? = nil
    ) {
        self.id = id
        self.tags = tags
        self.format = format
        self.audioURL = audioURL
        self.artworkURL = artworkURL
        self.gainDb = gainDb
        self.headroomDb = headroomDb
        self.tempo = tempo
    }

    public subscript<T>(dynamicMember field: WritableKeyPath<TrackTags, T>) -> T {
        get { tags[keyPath: field] }
        set { tags[keyPath: field] = newValue }
    }

    /// Where to fetch the audio converted to `format` (`mp3`, `m4a` or
    /// `opus`): `audioURL` may carry a query already (a station's timeline
    /// names the station, so a cluster's balancer sends it to that node).
    public func audioURL(as format: String) -> String {
        audioURL + (audioURL.contains("?") ? "&" : "?") + "format=" + format
    }
}

/// Full track details: the summary plus identifiers and sidecar files.
public struct TrackDetails: Sendable, Codable, Equatable {
    public var track: TrackSummary
    public var codec: String
    public var isrc: String?
    public var musicBrainzRecordingID: String?
    public var hasLyrics: Bool
    public var lyricsURL: String?

    public init(
        track: TrackSummary, codec: String, isrc: String?, musicBrainzRecordingID: String?, hasLyrics: Bool,
        lyricsURL: String?
    ) {
        self.track = track
        self.codec = codec
        self.isrc = isrc
        self.musicBrainzRecordingID = musicBrainzRecordingID
        self.hasLyrics = hasLyrics
        self.lyricsURL = lyricsURL
    }
}

/// One timeline entry with its track resolved.
public struct EntryView: Sendable, Codable, Equatable {
    public var id: EntryID
    public var track: TrackSummary
    public var start: EpochMillis
    /// start + duration: when the entry stops playing.
    public var expiration: EpochMillis
    public var durationMs: Int64
    /// Where in the audio file playback of this entry begins.
    public var offsetMs: Int64
    public var source: EntrySource
    /// Why the robot DJ picked it, in one line (robot picks only, when it
    /// has learned something).
    public var why: String?
    /// In history: the most people listening at once while it played.
    public var listeners: Int?

    public init(entry: TimelineEntry, track: TrackSummary, listeners: Int? = nil) {
        self.id = entry.id
        self.track = track
        // A live entry's title is its show's; its length is the entry's.
        if entry.source == .live {
            self.track.title = entry.why ?? "Live"
            self.track.durationMs = entry.duration
        }
        self.start = entry.start
        self.expiration = entry.expiration
        self.durationMs = entry.duration
        self.offsetMs = entry.offset
        self.source = entry.source
        self.why = entry.why
        self.listeners = listeners
    }
}

/// What a station is doing around now: the current entry, Up Next and the
/// recent history, stamped with the revision and the server's clock.
public struct TimelineWindow: Sendable, Codable, Equatable {
    public var stationID: StationID
    public var revision: Int64
    public var serverTime: EpochMillis
    public var current: EntryView?
    /// How far into the current entry the server clock is, in ms.
    public var positionMs: Int64?
    public var upNext: [EntryView]
    /// Most recent first.
    public var history: [EntryView]
    /// When the DJ paused the station; absent while it plays. While paused,
    /// `current` is the frozen entry and `upNext` starts when it would end.
    public var pausedAt: EpochMillis?
    /// How many entries are upcoming in all; `upNext` may hold only the first
    /// ones (a WebSocket window carries at most 50, to keep frames small).
    public var upNextTotal: Int?

    public init(
        stationID: StationID, revision: Int64, serverTime: EpochMillis, current: EntryView?, positionMs: Int64?,
        upNext: [EntryView], history: [EntryView], pausedAt: EpochMillis? = nil, upNextTotal: Int? = nil
    ) {
        self.stationID = stationID
        self.revision = revision
        self.serverTime = serverTime
        self.current = current
        self.positionMs = positionMs
        self.upNext = upNext
        self.history = history
        self.pausedAt = pausedAt
        self.upNextTotal = upNextTotal ?? upNext.count
    }
}

public struct StationView: Sendable, Codable, Equatable {
    public var id: StationID
    public var name: String
    /// The owner's display name.
    public var owner: String
    public var ownerID: String?
    /// The short code shown as a radio frequency, e.g. "107.3"; nil while the
    /// station holds none, or when it is code-protected and you aren't in.
    public var frequency: String?
    public var visibility: StationVisibility
    public var maxListeners: Int?
    public var revision: Int64
    public var listeners: Int
    /// True while someone is listening.
    public var onAir: Bool
    public var nowPlaying: TrackSummary?
    public var createdAt: EpochMillis
    /// The asking person's role here.
    public var role: StationRole
    /// Who decides what plays: `dj`, `requests` (the party) or `lobby`.
    public var mode: ProgrammingMode
    /// How loud it plays (absent from servers before loudness targets).
    public var sound: SoundView?

    public init(
        id: StationID, name: String, owner: String, ownerID: String? = nil, frequency: String?,
        visibility: StationVisibility = .public, maxListeners: Int? = nil, revision: Int64, listeners: Int,
        onAir: Bool, nowPlaying: TrackSummary?, createdAt: EpochMillis, role: StationRole = .none,
        mode: ProgrammingMode = .dj, sound: SoundView? = nil
    ) {
        self.sound = sound
        self.mode = mode
        self.id = id
        self.name = name
        self.owner = owner
        self.ownerID = ownerID
        self.frequency = frequency
        self.visibility = visibility
        self.maxListeners = maxListeners
        self.revision = revision
        self.listeners = listeners
        self.onAir = onAir
        self.nowPlaying = nowPlaying
        self.createdAt = createdAt
        self.role = role
    }
}

/// How far the background loudness analysis has come.
public struct AnalysisProgress: Sendable, Codable, Equatable {
    /// Playable tracks measured (or found unmeasurable).
    public var analyzed: Int
    /// Playable tracks in the library.
    public var total: Int
    /// Whether it is measuring now.
    public var running: Bool

    public init(analyzed: Int, total: Int, running: Bool) {
        self.analyzed = analyzed
        self.total = total
        self.running = running
    }
}

/// How loud a station plays: each track brought to `targetLufs`, then moved
/// by the room's `levelDb` from the server instant `since` on (every player
/// changes at that instant, so the room hears it together).
public struct SoundView: Sendable, Codable, Equatable {
    public var targetLufs: Double
    public var levelDb: Double
    public var since: EpochMillis
    /// Who moved the level last, in words.
    public var reason: String?

    public init(targetLufs: Double, levelDb: Double, since: EpochMillis, reason: String?) {
        self.targetLufs = targetLufs
        self.levelDb = levelDb
        self.since = since
        self.reason = reason
    }

    public init(_ sound: StationSound) {
        self.init(targetLufs: sound.target, levelDb: sound.levelDb, since: sound.since, reason: sound.reason)
    }

    public static let standard = SoundView(targetLufs: Loudness.defaultTarget, levelDb: 0, since: 0, reason: nil)

    /// The gain in dB a player applies to `track` (web players do the same
    /// sum in `web-audio-player.js`).
    public func gainDb(for track: TrackSummary) -> Double {
        Loudness.playbackGain(
            trackGain: track.gainDb, headroom: track.headroomDb,
            offset: targetLufs - Loudness.defaultTarget + levelDb)
    }
}
