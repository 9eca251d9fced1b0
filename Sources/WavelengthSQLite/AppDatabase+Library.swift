import WavelengthStore
import Foundation
import GRDB
import WavelengthCore
import WavelengthLibrary

extension AppDatabase: LibraryIndex {
    public func knownFiles(under roots: [String]) async throws -> [IndexedFile] {
        try await writer.read { db in
            var files: [IndexedFile] = []
            for root in roots {
                let prefix = root.hasSuffix("/") ? root : root + "/"
                let rows = try Row.fetchAll(
                    db,
                    sql: "SELECT id, path, size, mtimeNs, fingerprint FROM track WHERE substr(path, 1, ?) = ?",
                    arguments: [prefix.utf8.count, prefix])
                for row in rows {
                    files.append(
                        IndexedFile(
                            trackID: row["id"], path: row["path"],
                            stamp: FileStamp(size: row["size"], mtimeNs: row["mtimeNs"]),
                            fingerprint: row["fingerprint"]))
                }
            }
            return files
        }
    }

    /// Applies a whole scan in one transaction, so a crash mid-scan leaves
    /// the previous index intact.
    public func applyScan(_ changes: ScanChanges) async throws {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        try await writer.write { db in
            for trackID in changes.removed {
                _ = try TrackRecord.deleteOne(db, key: trackID)
            }
            for (trackID, file) in changes.updated + changes.moved {
                let addedAt = try Int64.fetchOne(db, sql: "SELECT addedAt FROM track WHERE id = ?", arguments: [trackID])
                var record = TrackRecord(id: trackID, file: file, addedAt: addedAt ?? now)
                // An administrator's corrections outlive the file's own tags changing.
                if let override = try Self.tagOverride(trackID, db) {
                    record.metadata.tags = override.applied(to: record.metadata.tags)
                }
                try record.save(db)
            }
            for file in changes.added {
                try TrackRecord(id: TrackRecord.newID(), file: file, addedAt: now).insert(db, onConflict: .replace)
            }
        }
    }
}

extension AppDatabase: TrackRepository {
    public func track(id: TrackID) async throws -> TrackRecord? {
        try await writer.read { db in try TrackRecord.fetchOne(db, key: id) }
    }

    public func tracks(ids: [TrackID]) async throws -> [TrackID: TrackRecord] {
        guard !ids.isEmpty else { return [:] }
        return try await writer.read { db in
            let records = try TrackRecord.fetchAll(db, keys: Array(Set(ids)))
            return Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// The SQL condition for what `viewer` may find (`TrackRecord.isVisible`).
    static func visible(to viewer: String?) -> (sql: String, arguments: StatementArguments) {
        guard let viewer else { return ("(track.uploaderID IS NULL OR track.shared)", []) }
        return ("(track.uploaderID IS NULL OR track.shared OR track.uploaderID = ?)", [viewer])
    }

    public func search(_ query: String, limit: Int, viewer: String?) async throws -> [TrackRecord] {
        let visible = Self.visible(to: viewer)
        guard let pattern = FTS5Pattern(matchingAllPrefixesIn: String(query.prefix(200))) else { return [] }
        return try await writer.read { db in
            // bm25 weights: a title hit counts most, then artist, then album.
            try TrackRecord.fetchAll(
                db,
                sql: """
                    SELECT track.* FROM track
                    JOIN track_search ON track_search.rowid = track.rowid
                    WHERE track_search MATCH ? AND \(visible.sql)
                    ORDER BY bm25(track_search, 10.0, 6.0, 3.0, 2.0), track.title
                    LIMIT ?
                    """,
                arguments: [pattern] + visible.arguments + [limit])
        }
    }

    public func artists(viewer: String?) async throws -> [ArtistSummary] {
        let visible = Self.visible(to: viewer)
        return try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT albumArtist AS name, COUNT(DISTINCT album) AS albumCount, COUNT(*) AS trackCount
                    FROM track WHERE \(visible.sql) GROUP BY albumArtist ORDER BY albumArtist COLLATE NOCASE
                    """, arguments: visible.arguments
            ).map { ArtistSummary(name: $0["name"], albumCount: $0["albumCount"], trackCount: $0["trackCount"]) }
        }
    }

    public func albums(artist: String?, viewer: String?) async throws -> [AlbumSummary] {
        let visible = Self.visible(to: viewer)
        return try await writer.read { db in
            let filter = "WHERE \(visible.sql)" + (artist == nil ? "" : " AND albumArtist = ?")
            let arguments: StatementArguments = visible.arguments + (artist.map { [$0] } ?? [])
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT album AS title, albumArtist AS artist, MAX(year) AS year, COUNT(*) AS trackCount,
                           (SELECT t2.id FROM track t2 WHERE t2.album = track.album AND t2.albumArtist = track.albumArtist
                            AND (t2.hasEmbeddedArt OR t2.artworkPath IS NOT NULL)
                            AND (t2.uploaderID IS NULL OR t2.shared) LIMIT 1) AS artworkTrackID
                    FROM track \(filter)
                    GROUP BY albumArtist, album ORDER BY albumArtist COLLATE NOCASE, album COLLATE NOCASE
                    """,
                arguments: arguments
            ).map {
                AlbumSummary(
                    title: $0["title"], artist: $0["artist"], year: $0["year"], trackCount: $0["trackCount"],
                    artworkTrackID: $0["artworkTrackID"])
            }
        }
    }

    public func tracks(artist: String?, album: String?, limit: Int, offset: Int, viewer: String?) async throws
        -> [TrackRecord]
    {
        let visible = Self.visible(to: viewer)
        return try await writer.read { db in
            var request = TrackRecord.filter(sql: visible.sql, arguments: visible.arguments)
            if let artist { request = request.filter(Column("albumArtist") == artist) }
            if let album { request = request.filter(Column("album") == album) }
            return
                try request
                .order(
                    Column("albumArtist").collating(.nocase), Column("album").collating(.nocase),
                    Column("discNumber"), Column("trackNumber"), Column("title").collating(.nocase)
                )
                .limit(limit, offset: offset)
                .fetchAll(db)
        }
    }

    public func poolTracks() async throws -> [PoolTrack] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, artist, durationMs, album, genre, year, tempo, onsetRate, loudness, loudnessRange,
                           CASE WHEN shared THEN NULL ELSE uploaderID END AS privateTo
                    FROM track WHERE durationMs > 0
                    """
            ).map {
                PoolTrack(
                    id: $0["id"], artist: $0["artist"], duration: $0["durationMs"], album: $0["album"],
                    genre: $0["genre"], year: $0["year"], tempo: $0["tempo"], onsetRate: $0["onsetRate"],
                    loudness: $0["loudness"], loudnessRange: $0["loudnessRange"], privateTo: $0["privateTo"])
            }
        }
    }

    public func trackCount() async throws -> Int {
        try await writer.read { db in try TrackRecord.fetchCount(db) }
    }
}

extension AppDatabase: AnalysisRepository {
    public func tracksToAnalyze(limit: Int) async throws -> [TrackRecord] {
        try await writer.read { db in
            try TrackRecord.filter(Column("analyzedAt") == nil && Column("durationMs") > 0)
                .order(Column("addedAt"), Column("id")).limit(limit).fetchAll(db)
        }
    }

    public func saveAnalysis(trackID: TrackID, features: AudioFeatures, at: EpochMillis) async throws {
        try await writer.write { db in try Self.saveAnalysis(trackID: trackID, features: features, at: at, db) }
    }

    static func saveAnalysis(trackID: TrackID, features: AudioFeatures, at: EpochMillis, _ db: Database) throws {
        let loudness = features.loudness
        let rhythm = features.rhythm
        try db.execute(
            sql: """
                UPDATE track SET loudness = ?, loudnessRange = ?, truePeak = ?, tempo = ?, onsetRate = ?, analyzedAt = ?
                WHERE id = ?
                """,
            arguments: [
                loudness?.integrated, loudness?.range, loudness?.truePeak, rhythm?.tempo, rhythm?.onsetRate, at, trackID,
            ])
        if let print = features.fingerprint {
            try db.execute(
                sql: "INSERT OR REPLACE INTO trackFingerprint (trackID, items) VALUES (?, ?)",
                arguments: [trackID, Data(print.bytes)])
        } else {
            try db.execute(sql: "DELETE FROM trackFingerprint WHERE trackID = ?", arguments: [trackID])
        }
    }

    public func fingerprints() async throws -> [(TrackID, AudioFingerprint)] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: "SELECT trackID, items FROM trackFingerprint ORDER BY trackID").compactMap { row in
                let items: Data = row["items"]
                return AudioFingerprint(bytes: [UInt8](items)).map { (row["trackID"], $0) }
            }
        }
    }

    public func analysisCounts() async throws -> (analyzed: Int, total: Int) {
        try await writer.read { db in
            let total = try Int.fetchOne(db, sql: "SELECT count(*) FROM track WHERE durationMs > 0") ?? 0
            let done =
                try Int.fetchOne(db, sql: "SELECT count(*) FROM track WHERE durationMs > 0 AND analyzedAt IS NOT NULL") ?? 0
            return (done, total)
        }
    }
}
