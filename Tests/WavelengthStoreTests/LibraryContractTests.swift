import Testing
import WavelengthCore
import WavelengthStore

/// The library index, search and analysis in every store that keeps them
/// (the same tests for each).
@Suite("Library storage contract")
struct LibraryContractTests {
    typealias Library = StationRepository & LibraryIndex & TrackRepository & AnalysisRepository

    static func withLibrary(_ kind: StoreKind, _ body: @escaping @Sendable (any Library) async throws -> Void) async throws {
        try await kind.withStore { store in try await body(try #require(store as? any Library)) }
    }

    static func file(_ path: String, title: String, artist: String, album: String, size: Int64 = 100) -> ScannedFile {
        ScannedFile(
            path: path, stamp: FileStamp(size: size, mtimeNs: 1), fingerprint: "fp-\(path)",
            metadata: TrackMetadata(
                title: title, artist: artist, album: album, albumArtist: artist, trackNumber: 1, discNumber: 1,
                year: 2020, genre: nil, durationMs: 60_000, isrc: nil, musicBrainzRecordingID: nil, format: .mp3,
                codec: "mp3", hasEmbeddedArt: false),
            artworkPath: nil, lyricsPath: nil)
    }

    @Test(arguments: StoreKind.full)
    func scansAreAppliedAndSearchFoldsCaseAndAccents(_ kind: StoreKind) async throws {
        try await Self.withLibrary(kind) { db in
            try await db.applyScan(
                ScanChanges(
                    added: [
                        Self.file("/m/a.mp3", title: "Café Nocturne", artist: "Aurora Vale", album: "Nuit"),
                        Self.file("/m/b.mp3", title: "Nocturnal", artist: "Émile", album: "Zürich Nights"),
                        Self.file("/m/c.mp3", title: "Daylight", artist: "Bo", album: "Café Sessions"),
                    ], updated: [], moved: [], removed: []))
            #expect(try await db.trackCount() == 3)
            #expect(try await db.search("cafe", limit: 10).map(\.title).sorted() == ["Café Nocturne", "Daylight"])
            // A title hit ranks above an album hit.
            #expect(try await db.search("cafe", limit: 10).first?.title == "Café Nocturne")
            #expect(try await db.search("EMIL", limit: 10).map(\.title) == ["Nocturnal"])
            #expect(try await db.search("zur nig", limit: 10).map(\.title) == ["Nocturnal"])
            #expect(try await db.search("noct", limit: 10).count == 2)
            #expect(try await db.search("\"*(OR", limit: 10).isEmpty)
            #expect(try await db.search("", limit: 10).isEmpty)

            let known = try await db.knownFiles(under: ["/m"])
            #expect(known.count == 3)
            #expect(try await db.knownFiles(under: ["/m/a"]).isEmpty)  // a prefix of a name is not a folder
            let a = try #require(known.first { $0.path == "/m/a.mp3" })
            // A move keeps the id; a removal drops the row and its search entry.
            var moved = Self.file("/m/sub/a.mp3", title: "Café Nocturne", artist: "Aurora Vale", album: "Nuit")
            moved.fingerprint = a.fingerprint
            let c = try #require(known.first { $0.path == "/m/c.mp3" })
            try await db.applyScan(ScanChanges(added: [], updated: [], moved: [(a.trackID, moved)], removed: [c.trackID]))
            #expect(try await db.track(id: a.trackID)?.path == "/m/sub/a.mp3")
            #expect(try await db.track(id: c.trackID) == nil)
            #expect(try await db.search("daylight", limit: 10).isEmpty)
            #expect(try await db.poolTracks().count == 2)
        }
    }

    @Test(arguments: StoreKind.full)
    func theAnalysisIsSavedOnceAndAChangedFileIsAnalysedAgain(_ kind: StoreKind) async throws {
        try await Self.withLibrary(kind) { db in
            try await db.applyScan(
                ScanChanges(
                    added: [
                        Self.file("/m/a.mp3", title: "A", artist: "Ada", album: "One"),
                        Self.file("/m/b.mp3", title: "B", artist: "Bo", album: "Two"),
                    ], updated: [], moved: [], removed: []))
            let waiting = try await db.tracksToAnalyze(limit: 10)
            #expect(waiting.count == 2)
            let a = try #require(waiting.first { $0.path == "/m/a.mp3" })
            let b = try #require(waiting.first { $0.path == "/m/b.mp3" })
            try await db.saveAnalysis(
                trackID: a.id,
                features: AudioFeatures(
                    loudness: LoudnessReading(integrated: -9, range: 4, truePeak: -0.5),
                    rhythm: RhythmReading(tempo: 124, onsetRate: 3.5)),
                at: 1)
            // b couldn't be read: marked, so it isn't tried again.
            try await db.saveAnalysis(trackID: b.id, features: AudioFeatures(), at: 1)
            #expect(try await db.tracksToAnalyze(limit: 10).isEmpty)
            #expect(try await db.analysisCounts() == (analyzed: 2, total: 2))
            let saved = try #require(try await db.track(id: a.id))
            #expect(saved.tempo == 124 && saved.onsetRate == 3.5 && saved.loudness == -9)
            let pool = try await db.poolTracks()
            #expect(pool.first { $0.id == a.id }?.tempo == 124)
            #expect(pool.first { $0.id == b.id }?.onsetRate == nil)
            // A changed file is a new reading: its row is rewritten without one.
            var changed = Self.file("/m/a.mp3", title: "A", artist: "Ada", album: "One", size: 200)
            changed.fingerprint = "changed"
            try await db.applyScan(ScanChanges(added: [], updated: [(a.id, changed)], moved: [], removed: []))
            #expect(try await db.tracksToAnalyze(limit: 10).map(\.id) == [a.id])
            #expect(try await db.track(id: a.id)?.tempo == nil)
        }
    }

    @Test(arguments: StoreKind.full)
    func theLibraryIsListedByArtistAndAlbumAndKeepsFingerprints(_ kind: StoreKind) async throws {
        try await Self.withLibrary(kind) { db in
            try await db.applyScan(
                ScanChanges(
                    added: [
                        Self.file("/m/1.mp3", title: "Beta", artist: "Ada", album: "Second"),
                        Self.file("/m/2.mp3", title: "Alpha", artist: "Ada", album: "First"),
                        Self.file("/m/3.mp3", title: "Gamma", artist: "bo", album: "Third"),
                    ], updated: [], moved: [], removed: []))
            let artists = try await db.artists()
            #expect(artists.map(\.name) == ["Ada", "bo"])
            #expect(artists.map(\.albumCount) == [2, 1])
            #expect(try await db.albums(artist: "Ada").map(\.title) == ["First", "Second"])
            #expect(try await db.albums(artist: nil).map(\.title) == ["First", "Second", "Third"])
            #expect(try await db.tracks(artist: "Ada", album: nil, limit: 10, offset: 0).map(\.title) == ["Alpha", "Beta"])
            #expect(try await db.tracks(artist: "Ada", album: nil, limit: 10, offset: 1).map(\.title) == ["Beta"])
            #expect(try await db.tracks(artist: nil, album: "Third", limit: 10, offset: 0).map(\.title) == ["Gamma"])
            let ids = try await db.tracksToAnalyze(limit: 10).map(\.id)
            #expect(Set(try await db.tracks(ids: ids + ["nope"]).keys) == Set(ids))
            let print = AudioFingerprint(items: [1, 0xFFFF_FFFF, 42])
            try await db.saveAnalysis(trackID: ids[0], features: AudioFeatures(fingerprint: print), at: 5)
            try await db.saveAnalysis(trackID: ids[1], features: AudioFeatures(), at: 5)
            let prints = try await db.fingerprints()
            #expect(prints.map(\.0) == [ids[0]])
            #expect(prints.first?.1 == print)
        }
    }

    @Test(arguments: StoreKind.full)
    func coLikesAreReadWithinTheirBounds(_ kind: StoreKind) async throws {
        try await Self.withLibrary(kind) { store in
            let db = try #require(store as? any Library & LikesRepository)
            try await db.applyScan(
                ScanChanges(
                    added: [
                        Self.file("/m/a.mp3", title: "Seed Song", artist: "Ada", album: "One"),
                        Self.file("/m/b.mp3", title: "B", artist: "Bo", album: "Two"),
                        Self.file("/m/c.mp3", title: "C", artist: "Cy", album: "Three"),
                    ], updated: [], moved: [], removed: []))
            let ids = Dictionary(uniqueKeysWithValues: try await db.knownFiles(under: ["/m"]).map { ($0.path, $0.trackID) })
            let (a, b, c) = (ids["/m/a.mp3"]!, ids["/m/b.mp3"]!, ids["/m/c.mp3"]!)
            for person in ["p1", "p2", "p3", "p4"] { try await kind.addPerson(person, to: db) }
            // p1 and p2 saved the seed and b; p3 saved c long ago, then the seed
            // and two newer songs; p4 saved b and c but not the seed.
            for (person, track, at) in [
                ("p1", a, 10), ("p1", b, 11), ("p2", b, 12), ("p2", a, 13), ("p3", c, 1), ("p3", a, 20),
                ("p3", "x1", 21), ("p3", "x2", 22), ("p4", b, 30), ("p4", c, 31),
            ] as [(String, TrackID, EpochMillis)] {
                #expect(try await db.like(personID: person, trackID: track, at: at, limit: 10))
            }
            let all = try await db.coLiked(with: [a], fans: 100, recentPerPerson: 100, limit: 10)
            #expect(all[b] == CoLike(seed: a, seedTitle: "Seed Song", people: 2))
            #expect(all[c]?.people == 1)
            #expect(all[a] == nil)
            // p3's c is older than their 3 newest songs.
            let recent = try await db.coLiked(with: [a], fans: 100, recentPerPerson: 3, limit: 10)
            #expect(recent[c] == nil)
            #expect(recent["x1"]?.people == 1)
            // Only the newest saver of the seed (p3) is read.
            let newestFan = try await db.coLiked(with: [a], fans: 1, recentPerPerson: 100, limit: 10)
            #expect(newestFan[b] == nil)
            #expect(newestFan[c]?.people == 1)
            #expect(try await db.coLiked(with: [], fans: 100, recentPerPerson: 100, limit: 10).isEmpty)
        }
    }

    /// History is searched by the library's words: every word must begin a
    /// word of the played track's title, artist or album, folded alike.
    @Test(arguments: StoreKind.full)
    func historyIsSearchedBySong(_ kind: StoreKind) async throws {
        try await Self.withLibrary(kind) { db in
            try await db.applyScan(
                ScanChanges(
                    added: [
                        Self.file("/m/a.mp3", title: "Café Nocturne", artist: "Aurora Vale", album: "Nuit"),
                        Self.file("/m/b.mp3", title: "Daylight", artist: "Bo", album: "Zürich Sessions"),
                    ], updated: [], moved: [], removed: []))
            let ids = Dictionary(uniqueKeysWithValues: try await db.knownFiles(under: ["/m"]).map { ($0.path, $0.trackID) })
            _ = try await db.insertStation(
                StationRecord(id: "s1", name: "One", owner: "me", frequency: nil, quietSince: nil, createdAt: 1),
                now: 1, band: FrequencyBand(tiers: [["101.1"]]), ownerLimit: nil)
            let state = try #require(try await db.loadStation(id: "s1")).state
            let played = [
                TimelineEntry(id: "e1", trackID: ids["/m/a.mp3"]!, start: 100, duration: 50, source: .robot),
                TimelineEntry(id: "e2", trackID: ids["/m/b.mp3"]!, start: 200, duration: 50, source: .robot),
                TimelineEntry(id: "e3", trackID: ids["/m/a.mp3"]!, start: 300, duration: 50, source: .dj),
            ]
            try await db.saveStation(StationSave(state: state, played: played, command: nil))
            let cafe = try await db.plays(stationID: "s1", matching: PlaySearch(text: "CAFE noct", limit: 10))
            #expect(cafe.map(\.entry.id) == ["e3", "e1"])
            #expect(try await db.plays(stationID: "s1", matching: PlaySearch(text: "zur", limit: 10)).map(\.entry.id) == ["e2"])
            #expect(try await db.plays(stationID: "s1", matching: PlaySearch(before: 300, text: "cafe", limit: 10)).map(\.entry.id) == ["e1"])
            #expect(try await db.plays(stationID: "s1", matching: PlaySearch(text: "nothing", limit: 10)).isEmpty)
            #expect(try await db.plays(stationID: "s1", matching: PlaySearch(text: "\"*(", limit: 10)).isEmpty)
            #expect(try await db.plays(stationID: "s1", matching: PlaySearch(limit: 2)).map(\.entry.id) == ["e3", "e2"])
        }
    }
}
