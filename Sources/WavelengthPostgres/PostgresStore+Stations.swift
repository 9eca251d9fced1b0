import PostgresNIO
import WavelengthCore
import WavelengthStore

extension PostgresStore: StationRepository {
    /// Every transaction that hands out a frequency takes this lock first:
    /// allocations across nodes go one at a time (they are rare), so two
    /// can't pick the same free code, and an owner's count can't be raced.
    static let frequencyLock: Int64 = 0x4672_6571  // "Freq"

    public func insertStation(_ record: StationRecord, now: EpochMillis, band: FrequencyBand, ownerLimit: Int?)
        async throws -> FrequencyAssignment
    {
        let draw = frequencyDraw
        return try await transaction { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.frequencyLock))", logger: logger)
            if let ownerLimit, let ownerID = record.ownerID {
                let owned = try await connection.query(
                    "SELECT count(*) AS n FROM station WHERE owner_id = \(ownerID)", logger: logger
                ).first { try $0.value("n", as: Int64.self) } ?? 0
                guard owned < ownerLimit else { throw StorageError.stationLimit(ownerLimit) }
            }
            let allocation = try await Self.allocate(connection, now: now, band: band, draw: draw, logger: logger)
            var record = record
            record.frequency = allocation.frequency
            try await Self.insert(record, connection, logger: logger)
            return (record, allocation.reclaimedFrom)
        }
    }

    /// The core's rule over the stations that hold a code, read under the
    /// frequency lock; the codes it takes back are let go here.
    static func allocate(
        _ connection: PostgresConnection, now: EpochMillis, band: FrequencyBand, draw: FrequencyDraw, logger: Logger
    ) async throws -> FrequencyAllocation.Allocation {
        let holders = try await connection.query(
            "SELECT id, frequency, code_expires_at, quiet_since, visibility FROM station WHERE frequency IS NOT NULL",
            logger: logger
        ).all { row in
            FrequencyHolders.Holder(
                stationID: try row.value("id"), frequency: try row.value("frequency"),
                codeExpiresAt: try row.value("code_expires_at"), quietSince: try row.value("quiet_since"),
                codeProtected: try row.value("visibility", as: String.self) == StationVisibility.code.rawValue)
        }
        var ledger = FrequencyHolders(holders)
        let allocation: FrequencyAllocation.Allocation
        do {
            allocation = try draw.draw { rng in try FrequencyAllocation.allocate(in: &ledger, now: now, band: band, using: &rng) }
        } catch is FrequencyAllocation.BandFull {
            throw StorageError.noFrequency
        }
        for id in ledger.released {
            try await connection.query("UPDATE station SET frequency = NULL WHERE id = \(id)", logger: logger)
        }
        return allocation
    }

    static func insert(_ r: StationRecord, _ connection: PostgresConnection, logger: Logger) async throws {
        let settings = try r.requestSettings.map { try JSONColumn.encode($0) }
        try await connection.query(
            """
            INSERT INTO station (\(unescaped: StationRows.columns)) VALUES (
                \(r.id), \(r.name), \(r.owner), \(r.ownerID), \(r.ownerKeyHash), \(r.frequency), \(r.codeExpiresAt),
                \(r.accessCode), \(r.visibility.rawValue), \(r.maxListeners.map(Int64.init)), \(r.personal), \(r.revision),
                \(r.quietSince), \(r.createdAt), \(r.pausedAt), \(r.mode.rawValue), \(settings))
            """, logger: logger)
    }

    public func listedStations(limit: Int) async throws -> [StationRecord] {
        let listed = StationVisibility.allCases.filter(\.isListed).map(\.rawValue)
        let onAir = try await query(
            """
            SELECT \(unescaped: StationRows.columns) FROM station
            WHERE visibility = ANY(\(listed)) AND quiet_since IS NULL
            AND id NOT IN (SELECT station_id FROM station_hidden) LIMIT \(limit)
            """
        ).all(StationRows.station)
        let quiet = try await query(
            """
            SELECT \(unescaped: StationRows.columns) FROM station
            WHERE visibility = ANY(\(listed)) AND quiet_since IS NOT NULL
            AND id NOT IN (SELECT station_id FROM station_hidden) ORDER BY quiet_since DESC LIMIT \(limit)
            """
        ).all(StationRows.station)
        return onAir + quiet
    }

    public func allStations() async throws -> [StationRecord] {
        try await query(
            "SELECT \(unescaped: StationRows.columns) FROM station ORDER BY created_at, id"
        ).all(StationRows.station)
    }

    public func station(id: StationID) async throws -> StationRecord? {
        try await query(
            "SELECT \(unescaped: StationRows.columns) FROM station WHERE id = \(id)"
        ).first(StationRows.station)
    }

    public func station(frequency: String) async throws -> StationRecord? {
        try await query(
            "SELECT \(unescaped: StationRows.columns) FROM station WHERE frequency = \(frequency)"
        ).first(StationRows.station)
    }

    public func loadStation(id: StationID) async throws -> LoadedStation? {
        try await transaction { connection in
            // One snapshot for every read below.
            try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: logger)
            guard
                let record = try await connection.query(
                    "SELECT \(unescaped: StationRows.columns) FROM station WHERE id = \(id)", logger: logger
                ).first(StationRows.station)
            else { return nil }
            let entries = try await connection.query(
                """
                SELECT id, track_id, start_at, duration, start_offset, source, why FROM timeline_entry
                WHERE station_id = \(id) ORDER BY position
                """, logger: logger
            ).all { try StationRows.entry($0, id: "id") }
            let recent = try await connection.query(
                """
                SELECT entry_id, track_id, start_at, duration, start_offset, source, why FROM play
                WHERE station_id = \(id) ORDER BY seq DESC LIMIT \(StationState.recentHistoryLimit)
                """, logger: logger
            ).all { try StationRows.entry($0, id: "entry_id") }
            let commands = try await connection.query(
                """
                SELECT command_id, revision, applied_at FROM applied_command
                WHERE station_id = \(id) ORDER BY revision DESC LIMIT 512
                """, logger: logger
            ).all { AppliedCommand(id: try $0.value("command_id"), revision: try $0.value("revision"), appliedAt: try $0.value("applied_at")) }
            let state = StationState(
                id: id, revision: record.revision, timeline: Timeline(entries: entries), quietSince: record.quietSince,
                recentHistory: recent.reversed(), pausedAt: record.pausedAt)
            let party = try await connection.query("SELECT queue FROM station_party WHERE station_id = \(id)", logger: logger)
                .first { try JSONColumn.decode(try $0.value("queue", as: String.self), as: RequestQueue.self) }
            let beliefs = try await connection.query(
                "SELECT feature, mean, variance FROM taste_belief WHERE station_id = \(id)", logger: logger
            ).all { (try $0.value("feature", as: String.self), TasteModel.Belief(mean: try $0.value("mean"), variance: try $0.value("variance"))) }
            let lobby = try await connection.query("SELECT saved FROM station_lobby WHERE station_id = \(id)", logger: logger)
                .first { try JSONColumn.decode(try $0.value("saved", as: String.self), as: LobbyState.Saved.self) }
            let standing = try await connection.query(
                """
                SELECT person_id, thumbs_up, thumbs_down, skips FROM credibility WHERE station_id = \(id)
                LIMIT \(LobbyState.maxPeople)
                """, logger: logger
            ).all { row in
                (
                    try row.value("person_id", as: String.self),
                    Credibility(
                        thumbsUp: Int(try row.value("thumbs_up", as: Int64.self)),
                        thumbsDown: Int(try row.value("thumbs_down", as: Int64.self)),
                        skips: Int(try row.value("skips", as: Int64.self)))
                )
            }
            return LoadedStation(
                record: record, state: state, recentCommands: commands.reversed(), party: party ?? RequestQueue(),
                taste: TasteModel(beliefs: Dictionary(beliefs, uniquingKeysWith: { first, _ in first })),
                lobby: lobby, credibility: Dictionary(standing, uniquingKeysWith: { first, _ in first }),
                chat: try await Self.chatRoom(connection, stationID: id, limit: ChatRoom.recentLimit, logger: logger))
        }
    }

    public func saveStation(_ save: StationSave) async throws {
        let state = save.state
        let id = state.id
        let (node, ttl, book) = (node, leaseSeconds, leases)
        try await transaction { connection in
            try await Self.fence(id, node: node, ttl: ttl, book: book, connection, logger: logger)
            try await connection.query(
                """
                UPDATE station SET revision = \(state.revision), quiet_since = \(state.quietSince),
                    paused_at = \(state.pausedAt) WHERE id = \(id)
                """, logger: logger)
            try await connection.query("DELETE FROM timeline_entry WHERE station_id = \(id)", logger: logger)
            for (position, e) in state.timeline.entries.enumerated() {
                try await connection.query(
                    """
                    INSERT INTO timeline_entry (station_id, position, id, track_id, start_at, duration, start_offset, source, why)
                    VALUES (\(id), \(Int64(position)), \(e.id), \(e.trackID), \(e.start), \(e.duration), \(e.offset),
                        \(e.source.rawValue), \(e.why))
                    """, logger: logger)
            }
            for e in save.played {
                try await connection.query(
                    """
                    INSERT INTO play (station_id, entry_id, track_id, start_at, duration, start_offset, source, listeners, why)
                    VALUES (\(id), \(e.id), \(e.trackID), \(e.start), \(e.duration), \(e.offset), \(e.source.rawValue),
                        \(save.listeners.map(Int64.init)), \(e.why))
                    """, logger: logger)
            }
            if let command = save.command {
                try await connection.query(
                    """
                    INSERT INTO applied_command (station_id, command_id, revision, applied_at)
                    VALUES (\(id), \(command.id), \(command.revision), \(command.appliedAt)) ON CONFLICT DO NOTHING
                    """, logger: logger)
            }
            if let party = save.party {
                let queue = try JSONColumn.encode(party)
                try await connection.query(
                    """
                    INSERT INTO station_party (station_id, queue) VALUES (\(id), \(queue))
                    ON CONFLICT (station_id) DO UPDATE SET queue = EXCLUDED.queue
                    """, logger: logger)
            }
            if let taste = save.taste {
                for feature in taste.removed {
                    try await connection.query(
                        "DELETE FROM taste_belief WHERE station_id = \(id) AND feature = \(feature)", logger: logger)
                }
                for (feature, belief) in taste.updated {
                    try await connection.query(
                        """
                        INSERT INTO taste_belief (station_id, feature, mean, variance)
                        VALUES (\(id), \(feature), \(belief.mean), \(belief.variance))
                        ON CONFLICT (station_id, feature) DO UPDATE SET mean = EXCLUDED.mean, variance = EXCLUDED.variance
                        """, logger: logger)
                }
            }
            if let lobby = save.lobby {
                let saved = try JSONColumn.encode(lobby)
                try await connection.query(
                    """
                    INSERT INTO station_lobby (station_id, saved) VALUES (\(id), \(saved))
                    ON CONFLICT (station_id) DO UPDATE SET saved = EXCLUDED.saved
                    """, logger: logger)
            }
            for (person, standing) in save.credibility {
                try await connection.query(
                    """
                    INSERT INTO credibility (station_id, person_id, thumbs_up, thumbs_down, skips)
                    VALUES (\(id), \(person), \(Int64(standing.thumbsUp)), \(Int64(standing.thumbsDown)), \(Int64(standing.skips)))
                    ON CONFLICT (station_id, person_id) DO UPDATE SET thumbs_up = EXCLUDED.thumbs_up,
                        thumbs_down = EXCLUDED.thumbs_down, skips = EXCLUDED.skips
                    """, logger: logger)
            }
            if let thumb = save.thumb {
                if let up = thumb.up {
                    try await connection.query(
                        """
                        INSERT INTO thumb (station_id, entry_id, person_id, track_id, up, at)
                        VALUES (\(id), \(thumb.entryID), \(thumb.personID), \(thumb.trackID), \(up), \(thumb.at))
                        ON CONFLICT (station_id, entry_id, person_id) DO UPDATE SET track_id = EXCLUDED.track_id,
                            up = EXCLUDED.up, at = EXCLUDED.at
                        """, logger: logger)
                } else {
                    try await connection.query(
                        """
                        DELETE FROM thumb WHERE station_id = \(id) AND entry_id = \(thumb.entryID)
                            AND person_id = \(thumb.personID)
                        """, logger: logger)
                }
            }
        }
    }

    public func thumbs(stationID: StationID, limit: Int) async throws -> [Thumb] {
        try await query(
            """
            SELECT entry_id, track_id, person_id, up, at FROM thumb WHERE station_id = \(stationID)
            ORDER BY at DESC LIMIT \(limit)
            """
        ).all { row in
            Thumb(
                entryID: try row.value("entry_id"), trackID: try row.value("track_id"), personID: try row.value("person_id"),
                up: try row.value("up"), at: try row.value("at"))
        }
    }

    public func updateParty(stationID: StationID, mode: ProgrammingMode, requestSettings: RequestSettings) async throws
        -> StationRecord?
    {
        let settings = try JSONColumn.encode(requestSettings)
        return try await query(
            """
            UPDATE station SET mode = \(mode.rawValue), request_settings = \(settings) WHERE id = \(stationID)
            RETURNING \(unescaped: StationRows.columns)
            """
        ).first(StationRows.station)
    }

    public func appliedRevision(stationID: StationID, commandID: String) async throws -> Int64? {
        try await query(
            "SELECT revision FROM applied_command WHERE station_id = \(stationID) AND command_id = \(commandID)"
        ).first { try $0.value("revision", as: Int64.self) }
    }

    public func pool(stationID: StationID) async throws -> [TrackID] {
        try await query(
            "SELECT track_id FROM station_pool WHERE station_id = \(stationID) ORDER BY track_id"
        ).all { try $0.value("track_id", as: String.self) }
    }

    public func setPool(stationID: StationID, trackIDs: [TrackID]) async throws {
        try await transaction { connection in
            try await connection.query("DELETE FROM station_pool WHERE station_id = \(stationID)", logger: logger)
            let unique = Array(Set(trackIDs))
            if !unique.isEmpty {
                try await connection.query(
                    """
                    INSERT INTO station_pool (station_id, track_id) SELECT \(stationID), unnest(\(unique))
                    """, logger: logger)
            }
        }
    }
}
