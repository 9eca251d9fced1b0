import PostgresNIO
import WavelengthCore
import WavelengthStore

extension PostgresStore: ClipRepository {
    public func insertClip(_ clip: VoiceClip, quotaBytes: Int, pendingLimit: Int) async throws {
        try await transaction { connection in
            // The station's row is locked first: racing uploads are weighed
            // against the quota one at a time.
            let exists = try await connection.query(
                "SELECT 1 AS one FROM station WHERE id = \(clip.stationID) FOR UPDATE", logger: logger
            ).first { _ in true } ?? false
            guard exists else { throw StorageError.noSuchStation }
            let sums = try await connection.query(
                """
                SELECT COALESCE(SUM(bytes) FILTER (WHERE status = 'pending'), 0)::BIGINT AS pending,
                       COALESCE(SUM(bytes) FILTER (WHERE status != 'pending'), 0)::BIGINT AS approved,
                       COUNT(*) FILTER (WHERE status = 'pending' AND person_id = \(clip.personID)) AS waiting
                FROM voice_clip WHERE station_id = \(clip.stationID)
                """, logger: logger
            ).first { row in
                (
                    pending: Int(try row.value("pending", as: Int64.self)),
                    approved: Int(try row.value("approved", as: Int64.self)),
                    waiting: Int(try row.value("waiting", as: Int64.self))
                )
            } ?? (pending: 0, approved: 0, waiting: 0)
            guard ClipLimits.fits(clip, approvedBytes: sums.approved, pendingBytes: sums.pending, quotaBytes: quotaBytes)
            else { throw StorageError.clipQuota(quotaBytes) }
            if clip.status == .pending, sums.waiting >= pendingLimit { throw StorageError.pendingClips(pendingLimit) }
            try await connection.query(
                """
                INSERT INTO voice_clip (id, station_id, person_id, name, note, duration_ms, bytes, status, created_at)
                VALUES (\(clip.id), \(clip.stationID), \(clip.personID), \(clip.name), \(clip.note), \(clip.durationMs),
                    \(Int64(clip.bytes)), \(clip.status.rawValue), \(clip.createdAt))
                """, logger: logger)
        }
    }

    static let clipColumns = "id, station_id, person_id, name, note, duration_ms, bytes, status, created_at"

    static func clip(_ row: PostgresRandomAccessRow) throws -> VoiceClip {
        VoiceClip(
            id: try row.value("id"), stationID: try row.value("station_id"), personID: try row.value("person_id"),
            name: try row.value("name"), note: try row.value("note"), durationMs: try row.value("duration_ms"),
            bytes: Int(try row.value("bytes", as: Int64.self)),
            status: VoiceClip.Status(rawValue: try row.value("status")) ?? .pending, createdAt: try row.value("created_at"))
    }

    public func clip(id: String) async throws -> VoiceClip? {
        try await query("SELECT \(unescaped: Self.clipColumns) FROM voice_clip WHERE id = \(id)")
            .first(Self.clip)
    }

    public func clips(stationID: StationID, personID: String?, limit: Int) async throws -> [VoiceClip] {
        if let personID {
            return try await query(
                """
                SELECT \(unescaped: Self.clipColumns) FROM voice_clip WHERE station_id = \(stationID) AND person_id = \(personID)
                ORDER BY created_at DESC, seq DESC LIMIT \(limit)
                """
            ).all(Self.clip)
        }
        return try await query(
            """
            SELECT \(unescaped: Self.clipColumns) FROM voice_clip WHERE station_id = \(stationID)
            ORDER BY created_at DESC, seq DESC LIMIT \(limit)
            """
        ).all(Self.clip)
    }

    public func approveClip(id: String) async throws -> Bool {
        try await query(
            "UPDATE voice_clip SET status = 'approved' WHERE id = \(id) AND status = 'pending' RETURNING 1 AS done"
        ).first { _ in true } ?? false
    }

    public func deleteClip(id: String) async throws -> VoiceClip? {
        try await query(
            "DELETE FROM voice_clip WHERE id = \(id) RETURNING \(unescaped: Self.clipColumns)"
        ).first(Self.clip)
    }

    public func clipBytes(stationID: StationID) async throws -> Int {
        try await query(
            "SELECT COALESCE(SUM(bytes), 0)::BIGINT AS n FROM voice_clip WHERE station_id = \(stationID)"
        ).first { Int(try $0.value("n", as: Int64.self)) } ?? 0
    }
}
