import GRDB
import WavelengthCore
import WavelengthStore

extension AppDatabase: PersonalDataRepository {
    public func chatMessages(by personID: String, limit: Int) async throws -> [AuthoredMessage] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, stationID, personID, name, handle, text, sentAt FROM chatMessage
                    WHERE personID = ? ORDER BY sentAt DESC, rowid DESC LIMIT ?
                    """, arguments: [personID, limit]
            ).map { row in
                AuthoredMessage(
                    stationID: row["stationID"],
                    message: ChatMessage(
                        id: row["id"], personID: row["personID"], name: row["name"], handle: row["handle"], text: row["text"],
                        sentAt: row["sentAt"]))
            }
        }
    }

    public func clips(by personID: String, limit: Int) async throws -> [VoiceClip] {
        try await writer.read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM voiceClip WHERE personID = ? ORDER BY createdAt DESC, rowid DESC LIMIT ?",
                arguments: [personID, limit]
            ).map(Self.clip)
        }
    }
}
