import PostgresNIO
import WavelengthCore
import WavelengthStore

extension PostgresStore: ChatRepository {
    public func saveChat(stationID: StationID, _ change: ChatSave) async throws {
        let (node, ttl, book) = (node, leaseSeconds, leases)
        try await transaction { connection in
            try await Self.fence(stationID, node: node, ttl: ttl, book: book, connection, logger: logger)
            switch change {
            case .post(let m, let purgeBefore, let keep):
                try await connection.query(
                    """
                    INSERT INTO chat_message (id, station_id, person_id, name, handle, text, sent_at)
                    VALUES (\(m.id), \(stationID), \(m.personID), \(m.name), \(m.handle), \(m.text), \(m.sentAt))
                    """, logger: logger)
                // The retention as messages come in (a quiet station's old
                // messages go at the next start), and at most `keep` messages.
                try await connection.query(
                    "DELETE FROM chat_message WHERE station_id = \(stationID) AND sent_at < \(purgeBefore)", logger: logger)
                try await connection.query(
                    """
                    DELETE FROM chat_message WHERE station_id = \(stationID) AND sent_at < (
                        SELECT sent_at FROM chat_message WHERE station_id = \(stationID)
                        ORDER BY sent_at DESC LIMIT 1 OFFSET \(max(0, keep - 1)))
                    """, logger: logger)
            case .delete(let ids):
                try await connection.query(
                    "DELETE FROM chat_message WHERE station_id = \(stationID) AND id = ANY(\(ids))", logger: logger)
            case .deleteAllBy(let personID):
                try await connection.query(
                    "DELETE FROM chat_message WHERE station_id = \(stationID) AND person_id = \(personID)", logger: logger)
            case .clear:
                try await connection.query("DELETE FROM chat_message WHERE station_id = \(stationID)", logger: logger)
            case .mute(let personID, let until):
                try await connection.query(
                    """
                    INSERT INTO chat_mute (station_id, person_id, until) VALUES (\(stationID), \(personID), \(until))
                    ON CONFLICT (station_id, person_id) DO UPDATE SET until = EXCLUDED.until
                    """, logger: logger)
            case .unmute(let personID):
                try await connection.query(
                    "DELETE FROM chat_mute WHERE station_id = \(stationID) AND person_id = \(personID)", logger: logger)
            case .slowMode(let seconds):
                try await connection.query(
                    """
                    INSERT INTO chat_setting (station_id, slow_mode_seconds) VALUES (\(stationID), \(Int64(seconds)))
                    ON CONFLICT (station_id) DO UPDATE SET slow_mode_seconds = EXCLUDED.slow_mode_seconds
                    """, logger: logger)
            }
        }
    }

    public func chatRoom(stationID: StationID, limit: Int, now: EpochMillis) async throws -> ChatRoom.Saved {
        var saved = try await transaction { connection in
            try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: logger)
            return try await Self.chatRoom(connection, stationID: stationID, limit: limit, logger: logger)
        }
        saved.mutes = saved.mutes.filter { $0.value > now }
        return saved
    }

    /// The newest `limit` messages (oldest first), the mutes and slow mode.
    static func chatRoom(_ connection: PostgresConnection, stationID: StationID, limit: Int, logger: Logger) async throws
        -> ChatRoom.Saved
    {
        let newest = try await connection.query(
            """
            SELECT id, person_id, name, handle, text, sent_at FROM chat_message WHERE station_id = \(stationID)
            ORDER BY sent_at DESC, seq DESC LIMIT \(limit)
            """, logger: logger
        ).all { row in
            ChatMessage(
                id: try row.value("id"), personID: try row.value("person_id"), name: try row.value("name"),
                handle: try row.value("handle"), text: try row.value("text"), sentAt: try row.value("sent_at"))
        }
        let mutes = try await connection.query(
            "SELECT person_id, until FROM chat_mute WHERE station_id = \(stationID)", logger: logger
        ).all { (try $0.value("person_id", as: String.self), try $0.value("until", as: EpochMillis.self)) }
        let slow = try await connection.query(
            "SELECT slow_mode_seconds FROM chat_setting WHERE station_id = \(stationID)", logger: logger
        ).first { Int(try $0.value("slow_mode_seconds", as: Int64.self)) }
        return ChatRoom.Saved(
            recent: newest.reversed(), mutes: Dictionary(mutes, uniquingKeysWith: max), slowModeSeconds: slow ?? 0)
    }

    public func purgeChat(before instant: EpochMillis) async throws -> Int {
        try await transaction { connection in
            let purged = try await connection.query(
                "WITH gone AS (DELETE FROM chat_message WHERE sent_at < \(instant) RETURNING 1) SELECT count(*) AS n FROM gone",
                logger: logger
            ).first { Int(try $0.value("n", as: Int64.self)) } ?? 0
            try await connection.query("DELETE FROM chat_mute WHERE until < \(instant)", logger: logger)
            return purged
        }
    }

    public func recordReactions(stationID: StationID, _ burst: Reactions.Burst) async throws {
        try await transaction { connection in
            for (emoji, count) in burst.burst {
                try await connection.query(
                    """
                    INSERT INTO play_reaction (station_id, entry_id, track_id, emoji, count)
                    VALUES (\(stationID), \(burst.entryID), \(burst.trackID), \(emoji), \(Int64(count)))
                    ON CONFLICT (station_id, entry_id, emoji) DO UPDATE SET count = play_reaction.count + EXCLUDED.count
                    """, logger: logger)
            }
        }
    }

    public func reactions(stationID: StationID, entryID: EntryID) async throws -> [String: Int] {
        let rows = try await query(
            "SELECT emoji, count FROM play_reaction WHERE station_id = \(stationID) AND entry_id = \(entryID)"
        ).all { (try $0.value("emoji", as: String.self), Int(try $0.value("count", as: Int64.self))) }
        return Dictionary(rows, uniquingKeysWith: +)
    }
}
