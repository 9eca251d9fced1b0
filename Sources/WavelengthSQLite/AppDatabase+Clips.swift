import GRDB
import WavelengthCore
import WavelengthStore

extension AppDatabase: ClipRepository {
    public func insertClip(_ clip: VoiceClip, quotaBytes: Int, pendingLimit: Int) async throws {
        try await writer.write { db in
            let pending = try Int.fetchOne(
                db, sql: "SELECT COALESCE(SUM(bytes), 0) FROM voiceClip WHERE stationID = ? AND status = 'pending'",
                arguments: [clip.stationID]) ?? 0
            let approved = try Int.fetchOne(
                db, sql: "SELECT COALESCE(SUM(bytes), 0) FROM voiceClip WHERE stationID = ? AND status != 'pending'",
                arguments: [clip.stationID]) ?? 0
            guard ClipLimits.fits(clip, approvedBytes: approved, pendingBytes: pending, quotaBytes: quotaBytes) else {
                throw StorageError.clipQuota(quotaBytes)
            }
            if clip.status == .pending {
                let waiting = try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM voiceClip WHERE stationID = ? AND personID = ? AND status = 'pending'",
                    arguments: [clip.stationID, clip.personID]) ?? 0
                guard waiting < pendingLimit else { throw StorageError.pendingClips(pendingLimit) }
            }
            try db.execute(
                sql: """
                    INSERT INTO voiceClip (id, stationID, personID, name, note, durationMs, bytes, status, createdAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    clip.id, clip.stationID, clip.personID, clip.name, clip.note, clip.durationMs, clip.bytes,
                    clip.status.rawValue, clip.createdAt,
                ])
        }
    }

    public func clip(id: String) async throws -> VoiceClip? {
        try await writer.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM voiceClip WHERE id = ?", arguments: [id]).map(Self.clip)
        }
    }

    public func clips(stationID: StationID, personID: String?, limit: Int) async throws -> [VoiceClip] {
        try await writer.read { db in
            if let personID {
                return try Row.fetchAll(
                    db, sql: "SELECT * FROM voiceClip WHERE stationID = ? AND personID = ? ORDER BY createdAt DESC, rowid DESC LIMIT ?",
                    arguments: [stationID, personID, limit]
                ).map(Self.clip)
            }
            return try Row.fetchAll(
                db, sql: "SELECT * FROM voiceClip WHERE stationID = ? ORDER BY createdAt DESC, rowid DESC LIMIT ?",
                arguments: [stationID, limit]
            ).map(Self.clip)
        }
    }

    public func approveClip(id: String) async throws -> Bool {
        try await writer.write { db in
            try db.execute(sql: "UPDATE voiceClip SET status = 'approved' WHERE id = ? AND status = 'pending'", arguments: [id])
            return db.changesCount > 0
        }
    }

    public func deleteClip(id: String) async throws -> VoiceClip? {
        try await writer.write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM voiceClip WHERE id = ?", arguments: [id]) else { return nil }
            try db.execute(sql: "DELETE FROM voiceClip WHERE id = ?", arguments: [id])
            return Self.clip(row)
        }
    }

    public func clipBytes(stationID: StationID) async throws -> Int {
        try await writer.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COALESCE(SUM(bytes), 0) FROM voiceClip WHERE stationID = ?", arguments: [stationID]) ?? 0
        }
    }

    static func clip(_ row: Row) -> VoiceClip {
        VoiceClip(
            id: row["id"], stationID: row["stationID"], personID: row["personID"], name: row["name"], note: row["note"],
            durationMs: row["durationMs"], bytes: row["bytes"],
            status: VoiceClip.Status(rawValue: row["status"]) ?? .pending, createdAt: row["createdAt"])
    }
}
