import WavelengthStore
import GRDB
import WavelengthCore

/// One row of a station's saved timeline.
struct TimelineEntryRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "timelineEntry"

    var stationID: StationID
    var position: Int
    var id: EntryID
    var trackID: TrackID
    var start: EpochMillis
    var duration: Int64
    var offset: Int64
    var source: String
    var why: String?

    init(stationID: StationID, position: Int, entry: TimelineEntry) {
        self.stationID = stationID
        self.position = position
        self.id = entry.id
        self.trackID = entry.trackID
        self.start = entry.start
        self.duration = entry.duration
        self.offset = entry.offset
        self.source = entry.source.rawValue
        self.why = entry.why
    }

    var entry: TimelineEntry {
        TimelineEntry(
            id: id, trackID: trackID, start: start, duration: duration, offset: offset,
            source: EntrySource(rawValue: source) ?? .robot, why: why)
    }
}

/// One row of a station's play history: an entry that went out on the air.
struct PlayRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "play"

    var seq: Int64?
    var stationID: StationID
    var entryID: EntryID
    var trackID: TrackID
    var start: EpochMillis
    var duration: Int64
    var offset: Int64
    var source: String
    var listeners: Int?
    /// Why the robot picked it, or a live show's title.
    var why: String?

    init(stationID: StationID, entry: TimelineEntry, listeners: Int?) {
        self.stationID = stationID
        self.entryID = entry.id
        self.trackID = entry.trackID
        self.start = entry.start
        self.duration = entry.duration
        self.offset = entry.offset
        self.source = entry.source.rawValue
        self.listeners = listeners
        self.why = entry.why
    }

    var play: Play { Play(entry: entry, listeners: listeners) }

    var entry: TimelineEntry {
        TimelineEntry(
            id: entryID, trackID: trackID, start: start, duration: duration, offset: offset,
            source: EntrySource(rawValue: source) ?? .robot, why: why)
    }
}

struct AppliedCommandRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "appliedCommand"

    var stationID: StationID
    var commandID: String
    var revision: Int64
    var appliedAt: EpochMillis
}

/// A station's party queue, saved whole as JSON in the same transaction as
/// the command that changed it. It is bounded (`RequestQueue.maxPending`
/// requests), and a party's queue is small next to the write itself.
struct StationPartyRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "stationParty"

    var stationID: StationID
    var queue: RequestQueue
}

/// One person's thumb on one play.
struct ThumbRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "thumb"

    var stationID: StationID
    var entryID: EntryID
    var personID: String
    var trackID: TrackID
    var up: Bool
    var at: EpochMillis

    init(stationID: StationID, thumb: Thumb, up: Bool) {
        self.stationID = stationID
        self.entryID = thumb.entryID
        self.personID = thumb.personID
        self.trackID = thumb.trackID
        self.up = up
        self.at = thumb.at
    }

    var thumb: Thumb {
        Thumb(entryID: entryID, trackID: trackID, personID: personID, up: up, at: at)
    }
}

/// One feature of a station's learned taste.
struct TasteBeliefRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "tasteBelief"

    var stationID: StationID
    var feature: String
    var mean: Double
    var variance: Double
}

/// A station's lobby: the ballot, its votes and the suggestions.
struct StationLobbyRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "stationLobby"

    var stationID: StationID
    var saved: LobbyState.Saved
}

/// One person's standing in one station's lobby.
struct CredibilityRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "credibility"

    var stationID: StationID
    var personID: String
    var thumbsUp: Int
    var thumbsDown: Int
    var skips: Int

    var credibility: Credibility {
        Credibility(thumbsUp: thumbsUp, thumbsDown: thumbsDown, skips: skips)
    }
}
