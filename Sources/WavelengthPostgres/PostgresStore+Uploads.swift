import PostgresNIO
import WavelengthCore
import WavelengthStore

extension PostgresStore: UploadRepository {
    /// Serialises the sums of stored uploads before an insert: at READ
    /// COMMITTED two uploads at once could otherwise both take the last bytes.
    static let uploadLock: Int64 = 0x5570_6c6f  // "Uplo"

    public func insertUpload(_ track: TrackRecord, features: AudioFeatures, allowance: UploadAllowance, at: EpochMillis)
        async throws
    {
        guard let uploaderID = track.uploaderID else { preconditionFailure("An upload names its uploader.") }
        try await transaction { [logger] connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.uploadLock))", logger: logger)
            let sums = try await connection.query(
                """
                SELECT COALESCE(SUM(size) FILTER (WHERE uploader_id = \(uploaderID)), 0)::BIGINT AS used,
                    COALESCE(SUM(size), 0)::BIGINT AS server_used,
                    (SELECT bytes FROM upload_quota WHERE person_id = \(uploaderID)) AS quota
                FROM track WHERE uploader_id IS NOT NULL
                """, logger: logger
            ).first { row in
                (try row.value("used", as: Int64.self), try row.value("server_used", as: Int64.self),
                 try row.value("quota", as: Int64?.self))
            }
            if let sums,
                let refusal = allowance.refusal(adding: track.size, used: sums.0, quota: sums.2, serverUsed: sums.1)
            {
                throw StorageError.uploadRefused(refusal)
            }
            try await Self.insert(track, connection, logger: logger)
            try await Self.saveAnalysis(trackID: track.id, features: features, at: at, connection, logger: logger)
        }
    }

    public func uploads(by personID: String, limit: Int, offset: Int) async throws -> [TrackRecord] {
        try await query(
            """
            SELECT \(unescaped: Self.trackColumns) FROM track WHERE uploader_id = \(personID)
            ORDER BY added_at DESC, id LIMIT \(limit) OFFSET \(offset)
            """
        ).all(Self.track)
    }

    public func allUploads(limit: Int, offset: Int) async throws -> [TrackRecord] {
        try await query(
            """
            SELECT \(unescaped: Self.trackColumns) FROM track WHERE uploader_id IS NOT NULL
            ORDER BY added_at DESC, id LIMIT \(limit) OFFSET \(offset)
            """
        ).all(Self.track)
    }

    public func uploadUsage(personID: String, allowance: UploadAllowance) async throws -> (used: Int64, quota: Int64) {
        try await query(
            """
            SELECT (SELECT COALESCE(SUM(size), 0)::BIGINT FROM track WHERE uploader_id = \(personID)) AS used,
                (SELECT bytes FROM upload_quota WHERE person_id = \(personID)) AS quota
            """
        ).first { row in
            (try row.value("used", as: Int64.self), try row.value("quota", as: Int64?.self) ?? allowance.defaultQuotaBytes)
        } ?? (0, allowance.defaultQuotaBytes)
    }

    public func setShared(trackID: TrackID, _ shared: Bool) async throws -> TrackRecord? {
        try await query(
            """
            UPDATE track SET shared = \(shared) WHERE id = \(trackID) AND uploader_id IS NOT NULL
            RETURNING \(unescaped: Self.trackColumns)
            """
        ).first(Self.track)
    }

    public func deleteUpload(trackID: TrackID, audit: AuditEntry?) async throws -> TrackRecord? {
        try await transaction { [logger] connection in
            let track = try await connection.query(
                """
                DELETE FROM track WHERE id = \(trackID) AND uploader_id IS NOT NULL
                RETURNING \(unescaped: Self.trackColumns)
                """, logger: logger
            ).first(Self.track)
            if track != nil, let audit { try await Self.insert(audit, connection, logger: logger) }
            return track
        }
    }

    public func setUploadQuota(personID: String, bytes: Int64?, audit: AuditEntry) async throws -> Bool {
        try await transaction { [logger] connection in
            let found = try await connection.query("SELECT id FROM person WHERE id = \(personID) FOR UPDATE", logger: logger)
                .first { _ in true } != nil
            guard found else { return false }
            if let bytes {
                try await connection.query(
                    """
                    INSERT INTO upload_quota (person_id, bytes) VALUES (\(personID), \(bytes))
                    ON CONFLICT (person_id) DO UPDATE SET bytes = EXCLUDED.bytes
                    """, logger: logger)
            } else {
                try await connection.query("DELETE FROM upload_quota WHERE person_id = \(personID)", logger: logger)
            }
            try await Self.insert(audit, connection, logger: logger)
            return true
        }
    }

    public func uploadPaths() async throws -> Set<String> {
        Set(try await query("SELECT path FROM track WHERE uploader_id IS NOT NULL").all { try $0.value("path", as: String.self) })
    }

    public func upload(contentFingerprint: String, size: Int64, visibleTo viewer: String) async throws -> TrackRecord? {
        try await query(
            """
            SELECT \(unescaped: Self.trackColumns) FROM track
            WHERE fingerprint = \(contentFingerprint) AND size = \(size)
              AND (uploader_id IS NULL OR shared OR uploader_id = \(viewer))
            LIMIT 1
            """
        ).first(Self.track)
    }
}

extension PostgresStore: TagOverrideRepository {
    public func setTagOverride(trackID: TrackID, _ override: TagOverride, tags: TrackTags, audit: AuditEntry) async throws
        -> TrackRecord?
    {
        try await transaction { [logger] connection in
            guard
                try await connection.query("SELECT id FROM track WHERE id = \(trackID) FOR UPDATE", logger: logger)
                    .first({ _ in true }) != nil
            else { return nil }
            if override.isEmpty {
                try await connection.query("DELETE FROM track_tag_override WHERE track_id = \(trackID)", logger: logger)
            } else {
                try await Self.keep(override, trackID: trackID, connection, logger: logger)
            }
            try await connection.query(
                """
                UPDATE track SET title = \(tags.title), artist = \(tags.artist), album = \(tags.album),
                    album_artist = \(tags.albumArtist), words_title = \(Self.words(tags.title)),
                    words_artist = \(Self.words(tags.artist)), words_album = \(Self.words(tags.album)),
                    words_album_artist = \(Self.words(tags.albumArtist))
                WHERE id = \(trackID)
                """, logger: logger)
            try await Self.insert(audit, connection, logger: logger)
            return try await connection.query(
                "SELECT \(unescaped: Self.trackColumns) FROM track WHERE id = \(trackID)", logger: logger
            ).first(Self.track)
        }
    }

    public func tagOverride(trackID: TrackID) async throws -> TagOverride? {
        try await query("SELECT title, artist, album FROM track_tag_override WHERE track_id = \(trackID)").first { row in
            TagOverride(title: try row.value("title"), artist: try row.value("artist"), album: try row.value("album"))
        }
    }

    static func tagOverride(_ trackID: TrackID, _ connection: PostgresConnection, logger: Logger) async throws
        -> TagOverride?
    {
        try await connection.query(
            "SELECT title, artist, album FROM track_tag_override WHERE track_id = \(trackID)", logger: logger
        ).first { row in
            TagOverride(title: try row.value("title"), artist: try row.value("artist"), album: try row.value("album"))
        }
    }

    static func keep(_ override: TagOverride, trackID: TrackID, _ connection: PostgresConnection, logger: Logger)
        async throws
    {
        try await connection.query(
            """
            INSERT INTO track_tag_override (track_id, title, artist, album)
            VALUES (\(trackID), \(override.title), \(override.artist), \(override.album))
            ON CONFLICT (track_id) DO UPDATE SET title = EXCLUDED.title, artist = EXCLUDED.artist, album = EXCLUDED.album
            """, logger: logger)
    }
}
