import GRDB
import WavelengthCore
import WavelengthStore

extension AppDatabase: ChatRepository {
    public func saveChat(stationID: StationID, _ change: ChatSave) async throws {
        try await writer.write { db in
            switch change {
            case .post(let message, let purgeBefore, let keep):
                try db.execute(
                    sql: "INSERT INTO chatMessage (id, stationID, personID, name, handle, text, sentAt) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    arguments: [
                        message.id, stationID, message.personID, message.name, message.handle, message.text, message.sentAt,
                    ])
                // The retention, kept as messages come in: a quiet station's
                // old messages go at the next start (`purgeChat`).
                try db.execute(
                    sql: "DELETE FROM chatMessage WHERE stationID = ? AND sentAt < ?", arguments: [stationID, purgeBefore])
                // And at most `keep` messages (`ChatRoom.keptPerStation`),
                // whatever the retention: a crowd posting for a week fills no disk.
                try db.execute(
                    sql: """
                        DELETE FROM chatMessage WHERE stationID = ? AND sentAt < (
                            SELECT sentAt FROM chatMessage WHERE stationID = ?
                            ORDER BY sentAt DESC LIMIT 1 OFFSET ?)
                        """,
                    arguments: [stationID, stationID, max(0, keep - 1)])
            case .delete(let ids):
                for id in ids {
                    try db.execute(sql: "DELETE FROM chatMessage WHERE stationID = ? AND id = ?", arguments: [stationID, id])
                }
            case .deleteAllBy(let personID):
                try db.execute(
                    sql: "DELETE FROM chatMessage WHERE stationID = ? AND personID = ?", arguments: [stationID, personID])
            case .clear:
                try db.execute(sql: "DELETE FROM chatMessage WHERE stationID = ?", arguments: [stationID])
            case .mute(let personID, let until):
                try db.execute(
                    sql: "INSERT OR REPLACE INTO chatMute (stationID, personID, until) VALUES (?, ?, ?)",
                    arguments: [stationID, personID, until])
            case .unmute(let personID):
                try db.execute(
                    sql: "DELETE FROM chatMute WHERE stationID = ? AND personID = ?", arguments: [stationID, personID])
            case .slowMode(let seconds):
                try db.execute(
                    sql: "INSERT OR REPLACE INTO chatSetting (stationID, slowModeSeconds) VALUES (?, ?)",
                    arguments: [stationID, seconds])
            }
        }
    }

    public func chatRoom(stationID: StationID, limit: Int, now: EpochMillis) async throws -> ChatRoom.Saved {
        try await writer.read { db in
            var saved = try Self.chatRoom(db, stationID: stationID, limit: limit)
            saved.mutes = saved.mutes.filter { $0.value > now }
            return saved
        }
    }

    /// The newest `limit` messages (oldest first), the mutes and slow mode.
    static func chatRoom(_ db: Database, stationID: StationID, limit: Int) throws -> ChatRoom.Saved {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT id, personID, name, handle, text, sentAt FROM chatMessage
                WHERE stationID = ? ORDER BY sentAt DESC, rowid DESC LIMIT ?
                """,
            arguments: [stationID, limit])
        let messages = rows.reversed().map { row in
            ChatMessage(
                id: row["id"], personID: row["personID"], name: row["name"], handle: row["handle"], text: row["text"],
                sentAt: row["sentAt"])
        }
        let mutes = try Row.fetchAll(
            db, sql: "SELECT personID, until FROM chatMute WHERE stationID = ?", arguments: [stationID])
        let slow = try Int.fetchOne(
            db, sql: "SELECT slowModeSeconds FROM chatSetting WHERE stationID = ?", arguments: [stationID])
        return ChatRoom.Saved(
            recent: messages,
            mutes: Dictionary(mutes.map { ($0["personID"] as String, $0["until"] as EpochMillis) }, uniquingKeysWith: max),
            slowModeSeconds: slow ?? 0)
    }

    public func purgeChat(before instant: EpochMillis) async throws -> Int {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM chatMessage WHERE sentAt < ?", arguments: [instant])
            let purged = db.changesCount
            try db.execute(sql: "DELETE FROM chatMute WHERE until < ?", arguments: [instant])
            return purged
        }
    }

    public func recordReactions(stationID: StationID, _ burst: Reactions.Burst) async throws {
        try await writer.write { db in
            for (emoji, count) in burst.burst {
                try db.execute(
                    sql: """
                        INSERT INTO playReaction (stationID, entryID, trackID, emoji, count) VALUES (?, ?, ?, ?, ?)
                        ON CONFLICT (stationID, entryID, emoji) DO UPDATE SET count = count + excluded.count
                        """,
                    arguments: [stationID, burst.entryID, burst.trackID, emoji, count])
            }
        }
    }

    public func reactions(stationID: StationID, entryID: EntryID) async throws -> [String: Int] {
        try await writer.read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT emoji, count FROM playReaction WHERE stationID = ? AND entryID = ?",
                arguments: [stationID, entryID])
            return Dictionary(rows.map { ($0["emoji"] as String, $0["count"] as Int) }, uniquingKeysWith: +)
        }
    }
}
