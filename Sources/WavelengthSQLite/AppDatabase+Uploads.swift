import Foundation
import GRDB
import WavelengthCore
import WavelengthStore

extension AppDatabase: UploadRepository {
    public func insertUpload(_ track: TrackRecord, features: AudioFeatures, allowance: UploadAllowance, at: EpochMillis)
        async throws
    {
        guard let uploaderID = track.uploaderID else { preconditionFailure("An upload names its uploader.") }
        try await writer.write { db in
            // One writer: the sums and the insert can't be raced.
            let used =
                try Int64.fetchOne(db, sql: "SELECT COALESCE(SUM(size), 0) FROM track WHERE uploaderID = ?", arguments: [uploaderID])
                ?? 0
            let serverUsed =
                try Int64.fetchOne(db, sql: "SELECT COALESCE(SUM(size), 0) FROM track WHERE uploaderID IS NOT NULL") ?? 0
            let quota = try Int64.fetchOne(db, sql: "SELECT bytes FROM uploadQuota WHERE personID = ?", arguments: [uploaderID])
            if let refusal = allowance.refusal(adding: track.size, used: used, quota: quota, serverUsed: serverUsed) {
                throw StorageError.uploadRefused(refusal)
            }
            try track.insert(db)
            try Self.saveAnalysis(trackID: track.id, features: features, at: at, db)
        }
    }

    public func uploads(by personID: String, limit: Int, offset: Int) async throws -> [TrackRecord] {
        try await writer.read { db in
            try TrackRecord.filter(Column("uploaderID") == personID)
                .order(Column("addedAt").desc, Column("id")).limit(limit, offset: offset).fetchAll(db)
        }
    }

    public func allUploads(limit: Int, offset: Int) async throws -> [TrackRecord] {
        try await writer.read { db in
            try TrackRecord.filter(Column("uploaderID") != nil)
                .order(Column("addedAt").desc, Column("id")).limit(limit, offset: offset).fetchAll(db)
        }
    }

    public func uploadUsage(personID: String, allowance: UploadAllowance) async throws -> (used: Int64, quota: Int64) {
        try await writer.read { db in
            let used =
                try Int64.fetchOne(db, sql: "SELECT COALESCE(SUM(size), 0) FROM track WHERE uploaderID = ?", arguments: [personID])
                ?? 0
            let quota = try Int64.fetchOne(db, sql: "SELECT bytes FROM uploadQuota WHERE personID = ?", arguments: [personID])
            return (used, quota ?? allowance.defaultQuotaBytes)
        }
    }

    public func setShared(trackID: TrackID, _ shared: Bool) async throws -> TrackRecord? {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE track SET shared = ? WHERE id = ? AND uploaderID IS NOT NULL", arguments: [shared, trackID])
            return try TrackRecord.filter(key: trackID).filter(Column("uploaderID") != nil).fetchOne(db)
        }
    }

    public func deleteUpload(trackID: TrackID, audit: AuditEntry?) async throws -> TrackRecord? {
        try await writer.write { db in
            guard let track = try TrackRecord.filter(key: trackID).filter(Column("uploaderID") != nil).fetchOne(db) else {
                return nil
            }
            try db.execute(sql: "DELETE FROM trackFingerprint WHERE trackID = ?", arguments: [trackID])
            _ = try TrackRecord.deleteOne(db, key: trackID)
            if let audit { try Self.insert(audit, db) }
            return track
        }
    }

    public func setUploadQuota(personID: String, bytes: Int64?, audit: AuditEntry) async throws -> Bool {
        try await writer.write { db in
            guard try PersonRecord.exists(db, key: personID) else { return false }
            if let bytes {
                try db.execute(
                    sql: "INSERT INTO uploadQuota (personID, bytes) VALUES (?, ?) ON CONFLICT(personID) DO UPDATE SET bytes = excluded.bytes",
                    arguments: [personID, bytes])
            } else {
                try db.execute(sql: "DELETE FROM uploadQuota WHERE personID = ?", arguments: [personID])
            }
            try Self.insert(audit, db)
            return true
        }
    }

    public func uploadPaths() async throws -> Set<String> {
        try await writer.read { db in
            Set(try String.fetchAll(db, sql: "SELECT path FROM track WHERE uploaderID IS NOT NULL"))
        }
    }

    public func upload(contentFingerprint: String, size: Int64, visibleTo viewer: String) async throws -> TrackRecord? {
        try await writer.read { db in
            try TrackRecord.filter(sql: "fingerprint = ? AND size = ?", arguments: [contentFingerprint, size])
                .filter(sql: Self.visible(to: viewer).sql, arguments: Self.visible(to: viewer).arguments)
                .fetchOne(db)
        }
    }
}

extension AppDatabase: TagOverrideRepository {
    public func setTagOverride(trackID: TrackID, _ override: TagOverride, tags: TrackTags, audit: AuditEntry) async throws
        -> TrackRecord?
    {
        try await writer.write { db in
            guard var track = try TrackRecord.fetchOne(db, key: trackID) else { return nil }
            if override.isEmpty {
                try db.execute(sql: "DELETE FROM trackTagOverride WHERE trackID = ?", arguments: [trackID])
            } else {
                try db.execute(
                    sql: """
                        INSERT INTO trackTagOverride (trackID, title, artist, album) VALUES (?, ?, ?, ?)
                        ON CONFLICT(trackID) DO UPDATE SET title = excluded.title, artist = excluded.artist, album = excluded.album
                        """,
                    arguments: [trackID, override.title, override.artist, override.album])
            }
            track.metadata.tags = tags
            // An update, not a replace: the search index follows by its triggers.
            try track.update(db)
            try Self.insert(audit, db)
            return track
        }
    }

    public func tagOverride(trackID: TrackID) async throws -> TagOverride? {
        try await writer.read { db in try Self.tagOverride(trackID, db) }
    }

    static func tagOverride(_ trackID: TrackID, _ db: Database) throws -> TagOverride? {
        try Row.fetchOne(db, sql: "SELECT title, artist, album FROM trackTagOverride WHERE trackID = ?", arguments: [trackID])
            .map { TagOverride(title: $0["title"], artist: $0["artist"], album: $0["album"]) }
    }
}
