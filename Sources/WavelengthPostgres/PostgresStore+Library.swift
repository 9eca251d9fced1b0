import Foundation
import PostgresNIO
import WavelengthCore
import WavelengthStore

extension PostgresStore: LibraryIndex {
    public func knownFiles(under roots: [String]) async throws -> [IndexedFile] {
        var files: [IndexedFile] = []
        for root in roots {
            let prefix = root.hasSuffix("/") ? root : root + "/"
            files += try await query(
                "SELECT id, path, size, mtime_ns, fingerprint FROM track WHERE starts_with(path, \(prefix))"
            ).all { row in
                IndexedFile(
                    trackID: try row.value("id"), path: try row.value("path"),
                    stamp: FileStamp(size: try row.value("size"), mtimeNs: try row.value("mtime_ns")),
                    fingerprint: try row.value("fingerprint"))
            }
        }
        return files
    }

    /// A whole scan in one transaction, so a crash mid-scan leaves the
    /// previous index as it was. A changed or moved file keeps its id and
    /// when it was added; its analysis is cleared, to be measured again.
    public func applyScan(_ changes: ScanChanges) async throws {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        try await transaction { connection in
            if !changes.removed.isEmpty {
                try await connection.query("DELETE FROM track WHERE id = ANY(\(changes.removed))", logger: logger)
            }
            for (trackID, file) in changes.updated + changes.moved {
                let addedAt = try await connection.query("SELECT added_at FROM track WHERE id = \(trackID)", logger: logger)
                    .first { try $0.value("added_at", as: Int64.self) }
                var record = TrackRecord(id: trackID, file: file, addedAt: addedAt ?? now)
                // An administrator's corrections outlive the file's own tags changing.
                let override = try await Self.tagOverride(trackID, connection, logger: logger)
                if let override { record.metadata.tags = override.applied(to: record.metadata.tags) }
                // The correction's row goes with the old one (ON DELETE CASCADE) and comes back after.
                try await connection.query("DELETE FROM track WHERE id = \(trackID)", logger: logger)
                try await Self.insert(record, connection, logger: logger)
                if let override { try await Self.keep(override, trackID: trackID, connection, logger: logger) }
            }
            for file in changes.added {
                try await connection.query("DELETE FROM track WHERE path = \(file.path)", logger: logger)
                try await Self.insert(TrackRecord(id: TrackRecord.newID(), file: file, addedAt: now), connection, logger: logger)
            }
        }
    }

    /// The search words kept beside a field: " word word …" (folded by `SearchWords`).
    static func words(_ text: String) -> String {
        SearchWords.of(text).map { " " + $0 }.joined()
    }

    static func insert(_ t: TrackRecord, _ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query(
            """
            INSERT INTO track (
                id, path, size, mtime_ns, fingerprint, title, artist, album, album_artist, track_number, disc_number,
                year, genre, duration_ms, isrc, musicbrainz_recording_id, format, codec, has_embedded_art, artwork_path,
                lyrics_path, added_at, words_title, words_artist, words_album, words_album_artist, uploader_id, shared,
                upload_name)
            VALUES (
                \(t.id), \(t.path), \(t.size), \(t.mtimeNs), \(t.fingerprint), \(t.title), \(t.artist), \(t.album),
                \(t.albumArtist), \(t.trackNumber.map(Int64.init)), \(t.discNumber.map(Int64.init)), \(t.year.map(Int64.init)),
                \(t.genre), \(t.durationMs), \(t.metadata.isrc), \(t.metadata.musicBrainzRecordingID), \(t.metadata.format.rawValue),
                \(t.metadata.codec), \(t.metadata.hasEmbeddedArt), \(t.artworkPath), \(t.lyricsPath), \(t.addedAt),
                \(words(t.title)), \(words(t.artist)), \(words(t.album)), \(words(t.albumArtist)), \(t.uploaderID),
                \(t.shared), \(t.uploadName))
            """, logger: logger)
    }
}

extension PostgresStore: TrackRepository {
    static let trackColumns = """
        id, path, size, mtime_ns, fingerprint, title, artist, album, album_artist, track_number, disc_number, year,
        genre, duration_ms, isrc, musicbrainz_recording_id, format, codec, has_embedded_art, artwork_path, lyrics_path,
        added_at, loudness, loudness_range, true_peak, tempo, onset_rate, analyzed_at, uploader_id, shared, upload_name
        """

    static func track(_ row: PostgresRandomAccessRow) throws -> TrackRecord {
        let metadata = TrackMetadata(
            title: try row.value("title"), artist: try row.value("artist"), album: try row.value("album"),
            albumArtist: try row.value("album_artist"),
            trackNumber: try row.value("track_number", as: Int64?.self).map { Int($0) },
            discNumber: try row.value("disc_number", as: Int64?.self).map { Int($0) },
            year: try row.value("year", as: Int64?.self).map { Int($0) }, genre: try row.value("genre"),
            durationMs: try row.value("duration_ms"), isrc: try row.value("isrc"),
            musicBrainzRecordingID: try row.value("musicbrainz_recording_id"),
            format: AudioFormat(rawValue: try row.value("format")) ?? .mp3, codec: try row.value("codec"),
            hasEmbeddedArt: try row.value("has_embedded_art"))
        let file = ScannedFile(
            path: try row.value("path"), stamp: FileStamp(size: try row.value("size"), mtimeNs: try row.value("mtime_ns")),
            fingerprint: try row.value("fingerprint"), metadata: metadata, artworkPath: try row.value("artwork_path"),
            lyricsPath: try row.value("lyrics_path"))
        var record = TrackRecord(id: try row.value("id"), file: file, addedAt: try row.value("added_at"))
        record.loudness = try row.value("loudness")
        record.loudnessRange = try row.value("loudness_range")
        record.truePeak = try row.value("true_peak")
        record.tempo = try row.value("tempo")
        record.onsetRate = try row.value("onset_rate")
        record.analyzedAt = try row.value("analyzed_at")
        record.uploaderID = try row.value("uploader_id")
        record.shared = try row.value("shared")
        record.uploadName = try row.value("upload_name")
        return record
    }

    public func track(id: TrackID) async throws -> TrackRecord? {
        try await query("SELECT \(unescaped: Self.trackColumns) FROM track WHERE id = \(id)")
            .first(Self.track)
    }

    public func tracks(ids: [TrackID]) async throws -> [TrackID: TrackRecord] {
        guard !ids.isEmpty else { return [:] }
        let records = try await query(
            "SELECT \(unescaped: Self.trackColumns) FROM track WHERE id = ANY(\(Array(Set(ids))))"
        ).all(Self.track)
        return Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Every word must begin a word of the title, artist, album or album
    /// artist (folded as `SearchWords` folds); a match in the title counts
    /// most. A scan of the words columns: fine for a library of tens of
    /// thousands; a trigram index would serve more.
    public func search(_ query: String, limit: Int, viewer: String?) async throws -> [TrackRecord] {
        let words = Array(SearchWords.of(String(query.prefix(200))).prefix(16))
        guard !words.isEmpty else { return [] }
        // Folded words hold letters and digits only: nothing LIKE reads as a wildcard.
        let patterns = words.map { "% \($0)%" }
        return try await self.query(
            """
            SELECT \(unescaped: Self.trackColumns) FROM track
            WHERE (words_title || words_artist || words_album || words_album_artist) LIKE ALL(\(patterns))
              AND (track.uploader_id IS NULL OR track.shared OR track.uploader_id = \(viewer))
            ORDER BY (CASE WHEN words_title LIKE ANY(\(patterns)) THEN \(SearchWords.titleWeight) ELSE 0 END
                + CASE WHEN words_artist LIKE ANY(\(patterns)) THEN \(SearchWords.artistWeight) ELSE 0 END
                + CASE WHEN words_album LIKE ANY(\(patterns)) THEN \(SearchWords.albumWeight) ELSE 0 END
                + CASE WHEN words_album_artist LIKE ANY(\(patterns)) THEN \(SearchWords.albumArtistWeight) ELSE 0 END) DESC,
                title
            LIMIT \(limit)
            """
        ).all(Self.track)
    }

    public func artists(viewer: String?) async throws -> [ArtistSummary] {
        try await query(
            """
            SELECT album_artist AS name, COUNT(DISTINCT album) AS album_count, COUNT(*) AS track_count
            FROM track WHERE uploader_id IS NULL OR shared OR uploader_id = \(viewer) GROUP BY album_artist ORDER BY lower(album_artist), album_artist
            """
        ).all { row in
            ArtistSummary(
                name: try row.value("name"), albumCount: Int(try row.value("album_count", as: Int64.self)),
                trackCount: Int(try row.value("track_count", as: Int64.self)))
        }
    }

    public func albums(artist: String?, viewer: String?) async throws -> [AlbumSummary] {
        try await query(
            """
            SELECT album AS title, album_artist AS artist, MAX(year) AS year, COUNT(*) AS track_count,
                   (SELECT t2.id FROM track t2 WHERE t2.album = track.album AND t2.album_artist = track.album_artist
                    AND (t2.has_embedded_art OR t2.artwork_path IS NOT NULL) AND (t2.uploader_id IS NULL OR t2.shared)
                    ORDER BY t2.id LIMIT 1) AS artwork_track_id
            FROM track WHERE (\(artist)::TEXT IS NULL OR album_artist = \(artist))
              AND (uploader_id IS NULL OR shared OR uploader_id = \(viewer))
            GROUP BY album_artist, album ORDER BY lower(album_artist), album_artist, lower(album), album
            """
        ).all { row in
            AlbumSummary(
                title: try row.value("title"), artist: try row.value("artist"),
                year: try row.value("year", as: Int64?.self).map { Int($0) },
                trackCount: Int(try row.value("track_count", as: Int64.self)),
                artworkTrackID: try row.value("artwork_track_id"))
        }
    }

    public func tracks(artist: String?, album: String?, limit: Int, offset: Int, viewer: String?) async throws
        -> [TrackRecord]
    {
        try await query(
            """
            SELECT \(unescaped: Self.trackColumns) FROM track
            WHERE (\(artist)::TEXT IS NULL OR album_artist = \(artist)) AND (\(album)::TEXT IS NULL OR album = \(album))
              AND (uploader_id IS NULL OR shared OR uploader_id = \(viewer))
            ORDER BY lower(album_artist), lower(album), disc_number NULLS FIRST, track_number NULLS FIRST, lower(title)
            LIMIT \(limit) OFFSET \(offset)
            """
        ).all(Self.track)
    }

    public func poolTracks() async throws -> [PoolTrack] {
        try await query(
            """
            SELECT id, artist, duration_ms, album, genre, year, tempo, onset_rate, loudness, loudness_range,
                   CASE WHEN shared THEN NULL ELSE uploader_id END AS private_to
            FROM track WHERE duration_ms > 0
            """
        ).all { row in
            PoolTrack(
                id: try row.value("id"), artist: try row.value("artist"), duration: try row.value("duration_ms"),
                album: try row.value("album"), genre: try row.value("genre"),
                year: try row.value("year", as: Int64?.self).map { Int($0) }, tempo: try row.value("tempo"),
                onsetRate: try row.value("onset_rate"), loudness: try row.value("loudness"),
                loudnessRange: try row.value("loudness_range"), privateTo: try row.value("private_to"))
        }
    }

    public func trackCount() async throws -> Int {
        try await query("SELECT count(*) AS n FROM track")
            .first { Int(try $0.value("n", as: Int64.self)) } ?? 0
    }
}

extension PostgresStore: AnalysisRepository {
    public func tracksToAnalyze(limit: Int) async throws -> [TrackRecord] {
        try await query(
            """
            SELECT \(unescaped: Self.trackColumns) FROM track WHERE analyzed_at IS NULL AND duration_ms > 0
            ORDER BY added_at, id LIMIT \(limit)
            """
        ).all(Self.track)
    }

    public func saveAnalysis(trackID: TrackID, features: AudioFeatures, at: EpochMillis) async throws {
        try await transaction { [logger] connection in
            try await Self.saveAnalysis(trackID: trackID, features: features, at: at, connection, logger: logger)
        }
    }

    static func saveAnalysis(
        trackID: TrackID, features: AudioFeatures, at: EpochMillis, _ connection: PostgresConnection, logger: Logger
    ) async throws {
        let loudness = features.loudness
        let rhythm = features.rhythm
        try await connection.query(
            """
            UPDATE track SET loudness = \(loudness?.integrated), loudness_range = \(loudness?.range),
                true_peak = \(loudness?.truePeak), tempo = \(rhythm?.tempo), onset_rate = \(rhythm?.onsetRate),
                analyzed_at = \(at)
            WHERE id = \(trackID)
            """, logger: logger)
        if let print = features.fingerprint {
            try await connection.query(
                """
                INSERT INTO track_fingerprint (track_id, items) VALUES (\(trackID), \(ByteBuffer(bytes: print.bytes)))
                ON CONFLICT (track_id) DO UPDATE SET items = EXCLUDED.items
                """, logger: logger)
        } else {
            try await connection.query("DELETE FROM track_fingerprint WHERE track_id = \(trackID)", logger: logger)
        }
    }

    public func fingerprints() async throws -> [(TrackID, AudioFingerprint)] {
        try await query("SELECT track_id, items FROM track_fingerprint ORDER BY track_id")
            .all { row in
                (try row.value("track_id", as: String.self), Array(try row.value("items", as: ByteBuffer.self).readableBytesView))
            }
            .compactMap { id, bytes in AudioFingerprint(bytes: bytes).map { (id, $0) } }
    }

    public func analysisCounts() async throws -> (analyzed: Int, total: Int) {
        try await query(
            """
            SELECT count(*) FILTER (WHERE analyzed_at IS NOT NULL) AS done, count(*) AS total
            FROM track WHERE duration_ms > 0
            """
        ).first { (Int(try $0.value("done", as: Int64.self)), Int(try $0.value("total", as: Int64.self))) } ?? (0, 0)
    }
}
