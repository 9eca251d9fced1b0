import WavelengthStore
import GRDB
import WavelengthCore

extension AppDatabase: StationRepository {
    public func insertStation(_ record: StationRecord, now: EpochMillis, band: FrequencyBand, ownerLimit: Int?)
        async throws -> FrequencyAssignment
    {
        try await writer.write { db in
            if let ownerLimit, let ownerID = record.ownerID {
                let owned = try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM station WHERE ownerID = ?", arguments: [ownerID]) ?? 0
                guard owned < ownerLimit else { throw StorageError.stationLimit(ownerLimit) }
            }
            var record = record
            let allocation = try frequencyDraw.draw { rng in
                try SQLiteFrequencyLedger.allocate(db, now: now, band: band, using: &rng)
            }
            record.frequency = allocation.frequency
            try record.insert(db)
            return (record, allocation.reclaimedFrom)
        }
    }

    public func listedStations(limit: Int) async throws -> [StationRecord] {
        let listed = StationVisibility.allCases.filter(\.isListed).map(\.rawValue)
        return try await writer.read { db in
            // Two reads along `station_listing`, so 100,000 stations cost
            // no more than a hundred.
            let shown = SQL("id NOT IN (SELECT stationID FROM stationHidden)")
            let onAir = try StationRecord.filter(listed.contains(Column("visibility")) && Column("quietSince") == nil)
                .filter(shown).limit(limit).fetchAll(db)
            let quiet = try StationRecord.filter(listed.contains(Column("visibility")) && Column("quietSince") != nil)
                .filter(shown).order(Column("quietSince").desc).limit(limit).fetchAll(db)
            return onAir + quiet
        }
    }

    public func allStations() async throws -> [StationRecord] {
        try await writer.read { db in
            try StationRecord.order(Column("createdAt"), Column("id")).fetchAll(db)
        }
    }

    public func station(id: StationID) async throws -> StationRecord? {
        try await writer.read { db in try StationRecord.fetchOne(db, key: id) }
    }

    public func station(frequency: String) async throws -> StationRecord? {
        try await writer.read { db in
            try StationRecord.filter(Column("frequency") == frequency).fetchOne(db)
        }
    }

    public func loadStation(id: StationID) async throws -> LoadedStation? {
        try await writer.read { db in
            guard let record = try StationRecord.fetchOne(db, key: id) else { return nil }
            let entries = try TimelineEntryRecord
                .filter(Column("stationID") == id)
                .order(Column("position"))
                .fetchAll(db)
                .map(\.entry)
            let recent = try PlayRecord
                .filter(Column("stationID") == id)
                .order(Column("seq").desc)
                .limit(StationState.recentHistoryLimit)
                .fetchAll(db)
                .reversed()
                .map(\.entry)
            let commands = try AppliedCommandRecord
                .filter(Column("stationID") == id)
                .order(Column("revision").desc)
                .limit(512)
                .fetchAll(db)
                .reversed()
                .map { AppliedCommand(id: $0.commandID, revision: $0.revision, appliedAt: $0.appliedAt) }
            let state = StationState(
                id: id, revision: record.revision, timeline: Timeline(entries: entries),
                quietSince: record.quietSince, recentHistory: Array(recent), pausedAt: record.pausedAt)
            let party = try StationPartyRecord.fetchOne(db, key: id)?.queue ?? RequestQueue()
            let beliefs = try TasteBeliefRecord.filter(Column("stationID") == id).fetchAll(db)
            let taste = TasteModel(
                beliefs: Dictionary(
                    beliefs.map { ($0.feature, TasteModel.Belief(mean: $0.mean, variance: $0.variance)) },
                    uniquingKeysWith: { first, _ in first }))
            let lobby = try StationLobbyRecord.fetchOne(db, key: id)?.saved
            let standing = try CredibilityRecord.filter(Column("stationID") == id).limit(LobbyState.maxPeople).fetchAll(db)
            return LoadedStation(
                record: record, state: state, recentCommands: Array(commands), party: party, taste: taste,
                lobby: lobby,
                credibility: Dictionary(standing.map { ($0.personID, $0.credibility) }, uniquingKeysWith: { a, _ in a }),
                chat: try Self.chatRoom(db, stationID: id, limit: ChatRoom.recentLimit))
        }
    }

    public func saveStation(_ save: StationSave) async throws {
        let (state, played, command, party) = (save.state, save.played, save.command, save.party)
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE station SET revision = ?, quietSince = ?, pausedAt = ? WHERE id = ?",
                arguments: [state.revision, state.quietSince, state.pausedAt, state.id])
            try TimelineEntryRecord.filter(Column("stationID") == state.id).deleteAll(db)
            for (position, entry) in state.timeline.entries.enumerated() {
                try TimelineEntryRecord(stationID: state.id, position: position, entry: entry).insert(db)
            }
            for entry in played {
                try PlayRecord(stationID: state.id, entry: entry, listeners: save.listeners).insert(db)
            }
            if let command {
                try AppliedCommandRecord(
                    stationID: state.id, commandID: command.id, revision: command.revision,
                    appliedAt: command.appliedAt
                ).insert(db, onConflict: .ignore)
            }
            if let party {
                try StationPartyRecord(stationID: state.id, queue: party).save(db)
            }
            if let taste = save.taste {
                for feature in taste.removed {
                    _ = try TasteBeliefRecord.deleteOne(db, key: ["stationID": state.id, "feature": feature])
                }
                for (feature, belief) in taste.updated {
                    try TasteBeliefRecord(
                        stationID: state.id, feature: feature, mean: belief.mean, variance: belief.variance
                    ).save(db)
                }
            }
            if let lobby = save.lobby {
                try StationLobbyRecord(stationID: state.id, saved: lobby).save(db)
            }
            for (person, standing) in save.credibility {
                try CredibilityRecord(
                    stationID: state.id, personID: person, thumbsUp: standing.thumbsUp, thumbsDown: standing.thumbsDown,
                    skips: standing.skips
                ).save(db)
            }
            if let thumb = save.thumb {
                if let up = thumb.up {
                    try ThumbRecord(stationID: state.id, thumb: thumb, up: up).save(db)
                } else {
                    _ = try ThumbRecord.deleteOne(db, key: ["stationID": state.id, "entryID": thumb.entryID, "personID": thumb.personID])
                }
            }
        }
    }

    public func thumbs(stationID: StationID, limit: Int) async throws -> [Thumb] {
        try await writer.read { db in
            try ThumbRecord.filter(Column("stationID") == stationID).order(Column("at").desc).limit(limit).fetchAll(db)
                .map(\.thumb)
        }
    }

    public func updateParty(stationID: StationID, mode: ProgrammingMode, requestSettings: RequestSettings) async throws
        -> StationRecord?
    {
        try await writer.write { db in
            guard var record = try StationRecord.fetchOne(db, key: stationID) else { return nil }
            record.mode = mode
            record.requestSettings = requestSettings
            try record.update(db, columns: ["mode", "requestSettings"])
            return record
        }
    }

    public func appliedRevision(stationID: StationID, commandID: String) async throws -> Int64? {
        try await writer.read { db in
            try Int64.fetchOne(
                db, sql: "SELECT revision FROM appliedCommand WHERE stationID = ? AND commandID = ?",
                arguments: [stationID, commandID])
        }
    }

    public func pool(stationID: StationID) async throws -> [TrackID] {
        try await writer.read { db in
            try String.fetchAll(
                db, sql: "SELECT trackID FROM stationPool WHERE stationID = ? ORDER BY trackID", arguments: [stationID])
        }
    }

    public func setPool(stationID: StationID, trackIDs: [TrackID]) async throws {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM stationPool WHERE stationID = ?", arguments: [stationID])
            for trackID in Set(trackIDs) {
                try db.execute(
                    sql: "INSERT INTO stationPool (stationID, trackID) VALUES (?, ?)", arguments: [stationID, trackID])
            }
        }
    }
}
