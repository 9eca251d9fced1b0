import Foundation
import GRDB
import Testing
import WavelengthCore
import WavelengthLibrary
@testable import WavelengthSQLite

@Suite("Storage")
struct AppDatabaseTests {
    func file(_ path: String, title: String, artist: String, album: String, size: Int64 = 100) -> ScannedFile {
        ScannedFile(
            path: path, stamp: FileStamp(size: size, mtimeNs: 1), fingerprint: "fp-\(path)",
            metadata: TrackMetadata(
                title: title, artist: artist, album: album, albumArtist: artist, trackNumber: 1, discNumber: 1,
                year: 2020, genre: nil, durationMs: 60_000, isrc: nil, musicBrainzRecordingID: nil, format: .mp3,
                codec: "mp3", hasEmbeddedArt: false),
            artworkPath: nil, lyricsPath: nil)
    }

    @Test func scansAreAppliedAndSearchFoldsCaseAndAccents() async throws {
        let db = try AppDatabase.inMemory()
        try await db.applyScan(
            ScanChanges(
                added: [
                    file("/m/a.mp3", title: "Café Nocturne", artist: "Aurora Vale", album: "Nuit"),
                    file("/m/b.mp3", title: "Nocturnal", artist: "Émile", album: "Zürich Nights"),
                    file("/m/c.mp3", title: "Daylight", artist: "Bo", album: "Café Sessions"),
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
        var moved = file("/m/sub/a.mp3", title: "Café Nocturne", artist: "Aurora Vale", album: "Nuit")
        moved.fingerprint = a.fingerprint
        let c = try #require(known.first { $0.path == "/m/c.mp3" })
        try await db.applyScan(ScanChanges(added: [], updated: [], moved: [(a.trackID, moved)], removed: [c.trackID]))
        #expect(try await db.track(id: a.trackID)?.path == "/m/sub/a.mp3")
        #expect(try await db.track(id: c.trackID) == nil)
        #expect(try await db.search("daylight", limit: 10).isEmpty)
        #expect(try await db.poolTracks().count == 2)
    }

    @Test func theAnalysisIsSavedOnceAndAChangedFileIsAnalysedAgain() async throws {
        let db = try AppDatabase.inMemory()
        try await db.applyScan(
            ScanChanges(
                added: [
                    file("/m/a.mp3", title: "A", artist: "Ada", album: "One"),
                    file("/m/b.mp3", title: "B", artist: "Bo", album: "Two"),
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
        var changed = file("/m/a.mp3", title: "A", artist: "Ada", album: "One", size: 200)
        changed.fingerprint = "changed"
        try await db.applyScan(ScanChanges(added: [], updated: [(a.id, changed)], moved: [], removed: []))
        #expect(try await db.tracksToAnalyze(limit: 10).map(\.id) == [a.id])
        #expect(try await db.track(id: a.id)?.tempo == nil)
    }

    @Test func coLikesAreReadWithinTheirBounds() async throws {
        let db = try AppDatabase.inMemory()
        try await db.applyScan(
            ScanChanges(
                added: [
                    file("/m/a.mp3", title: "Seed Song", artist: "Ada", album: "One"),
                    file("/m/b.mp3", title: "B", artist: "Bo", album: "Two"),
                    file("/m/c.mp3", title: "C", artist: "Cy", album: "Three"),
                ], updated: [], moved: [], removed: []))
        let ids = Dictionary(uniqueKeysWithValues: try await db.knownFiles(under: ["/m"]).map { ($0.path, $0.trackID) })
        let (a, b, c) = (ids["/m/a.mp3"]!, ids["/m/b.mp3"]!, ids["/m/c.mp3"]!)
        try await db.writer.write { db in
            for person in ["p1", "p2", "p3", "p4"] {
                try db.execute(
                    sql: "INSERT INTO person (id, kind, displayName, createdAt) VALUES (?, 'guest', ?, 0)",
                    arguments: [person, person])
            }
        }
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

    @Test func stationsRoundTripWithTimelineHistoryAndCommands() async throws {
        let db = try AppDatabase.inMemory()
        let record = StationRecord(
            id: "s1", name: "One", owner: "me", ownerKeyHash: "h", frequency: "101.1", quietSince: nil, createdAt: 5)
        let saved = try await db.insertStation(
            record, now: 5, band: FrequencyBand(tiers: [["101.1"]]), ownerLimit: nil
        ).record
        #expect(saved.frequency == "101.1")
        // The next station gets a code no one holds.
        var duplicate = record
        duplicate.id = "s2"
        let second = try await db.insertStation(
            duplicate, now: 5, band: FrequencyBand(tiers: [["101.1", "88.1"]]), ownerLimit: nil
        ).record
        #expect(second.frequency == "88.1")

        var state = StationState(id: "s1", quietSince: nil)
        var rng = SeededRandom(seed: 1)
        let tracks = [PoolTrack(id: "t1", artist: "A", duration: 1000), PoolTrack(id: "t2", artist: "B", duration: 2000)]
        _ = state.fill(at: 0, robot: RobotDJ(), pool: tracks, fallback: [], artistOf: { _ in nil }, using: &rng)
        let outcome = try state.apply(.skip(entryID: nil), at: 10, track: { _ in nil }, using: &rng)
        try await db.saveStation(state, played: outcome.played, command: AppliedCommand(id: "c1", revision: state.revision, appliedAt: 10))

        let loaded = try #require(try await db.loadStation(id: "s1"))
        #expect(loaded.state == state)
        #expect(loaded.recentCommands == [AppliedCommand(id: "c1", revision: state.revision, appliedAt: 10)])
        #expect(try await db.appliedRevision(stationID: "s1", commandID: "c1") == state.revision)
        #expect(try await db.appliedRevision(stationID: "s1", commandID: "c2") == nil)
        #expect(try await db.plays(stationID: "s1", matching: PlaySearch(before: 100, limit: 5)).map(\.entry.id) == outcome.played.map(\.id))
        #expect(try await db.station(frequency: "101.1")?.id == "s1")
    }

    @Test func whatTheRobotLearnedAndWhyItPickedSurviveARestart() async throws {
        let db = try AppDatabase.inMemory()
        let record = StationRecord(
            id: "s1", name: "One", owner: "me", ownerKeyHash: "h", frequency: "101.1", quietSince: nil, createdAt: 5)
        _ = try await db.insertStation(record, now: 5, band: FrequencyBand(tiers: [["101.1"]]), ownerLimit: nil)
        let folk = PoolTrack(id: "t1", artist: "Ada", duration: 1000, album: "First", genre: "Folk", year: 1994)
        var taste = TasteModel()
        var timeline = Timeline()
        try timeline.append(
            TimelineEntry(id: "e1", trackID: "t1", start: 0, duration: 1000, source: .robot, why: "Because the room liked Ada"),
            at: 0)
        let state = StationState(id: "s1", timeline: timeline, quietSince: nil)
        let first = taste.learn(.thumbUp, features: folk.tasteFeatures)
        try await db.saveStation(StationSave(state: state, played: [], command: nil, taste: first))
        var second = taste.learn(.skipped, features: ["track:t2"])
        second.removed = ["decade:1990s"]  // as a trim reports a dropped belief
        taste.apply(TasteModel.Change(removed: ["decade:1990s"]))
        try await db.saveStation(StationSave(state: state, played: [], command: nil, taste: second))

        let loaded = try #require(try await db.loadStation(id: "s1"))
        #expect(loaded.taste == taste)
        #expect(loaded.taste.beliefs["decade:1990s"] == nil)
        #expect(loaded.state.timeline.entries.first?.why == "Because the room liked Ada")
    }

    /// The frequency draw takes the database's injected generator: two
    /// databases seeded alike hand out the same codes in the same order, and
    /// another seed a different order.
    @Test func frequenciesAreDrawnFromTheInjectedGenerator() async throws {
        let band = FrequencyBand(tiers: [(0..<40).map { "9\($0 / 10).\($0 % 10)" }])
        func codes(seed: UInt64) async throws -> [String] {
            var db = try AppDatabase.inMemory()
            db.frequencyDraw = .seeded(seed)
            var drawn: [String] = []
            for n in 0..<8 {
                let record = StationRecord(
                    id: "s\(n)", name: "s\(n)", owner: "me", frequency: nil, visibility: .public, quietSince: nil, createdAt: 1)
                drawn.append(try #require(try await db.insertStation(record, now: 5, band: band, ownerLimit: nil).record.frequency))
            }
            return drawn
        }
        let first = try await codes(seed: 7)
        #expect(Set(first).count == 8)
        #expect(try await codes(seed: 7) == first)
        #expect(try await codes(seed: 8) != first)
    }

    @Test func codesAreUniqueAmongLiveStationsAndQuietOnesGiveThemBack() async throws {
        let db = try AppDatabase.inMemory()
        func station(_ id: String, quietSince: EpochMillis?, visibility: StationVisibility = .public) -> StationRecord {
            StationRecord(
                id: id, name: id, owner: "me", frequency: nil, visibility: visibility, quietSince: quietSince, createdAt: 1)
        }
        // A band with two codes.
        let dial = FrequencyBand(tiers: [["90.1", "90.3"]])
        let old = try await db.insertStation(station("old", quietSince: 10), now: 100, band: dial, ownerLimit: nil)
        _ = try await db.insertStation(
            station("party", quietSince: 5, visibility: .code), now: 100, band: dial, ownerLimit: nil)
        // Full: the longest-quiet station that isn't code-protected gives its code up.
        let third = try await db.insertStation(station("new", quietSince: nil), now: 100, band: dial, ownerLimit: nil)
        #expect(third.record.frequency == old.record.frequency)
        #expect(third.reclaimedFrom == "old")
        #expect(try await db.station(id: "old")?.frequency == nil)
        #expect(try await db.station(id: "party")?.frequency != nil)
        // Nothing left to take back: a clear error.
        await #expect(throws: StorageError.noFrequency) {
            try await db.insertStation(station("more", quietSince: nil), now: 100, band: dial, ownerLimit: nil)
        }
        // An expired code is free again, and the rotation hands out another.
        let wider = FrequencyBand(tiers: [["90.1", "90.3", "90.5"]])
        let rotated = try await db.assignCode(
            stationID: "party", accessCode: "123456", expiresAt: 150, now: 100, band: wider)
        #expect(rotated.record.frequency == "90.5")
        #expect(rotated.record.accessCode == "123456")
        #expect(rotated.record.liveFrequency(at: 149) != nil)
        #expect(rotated.record.liveFrequency(at: 150) == nil)
    }

    /// A code-protected station's guests were told its code, so it keeps it
    /// while quiet, but not forever: after the hold the band takes it back.
    @Test func aQuietCodeProtectedStationKeepsItsCodeOnlyForTheHold() async throws {
        let db = try AppDatabase.inMemory()
        let dial = FrequencyBand(tiers: [["90.1"]])
        let party = StationRecord(
            id: "party", name: "party", owner: "me", frequency: nil, visibility: .code, quietSince: 0, createdAt: 0)
        _ = try await db.insertStation(party, now: 0, band: dial, ownerLimit: nil)
        func newcomer(_ id: String) -> StationRecord {
            StationRecord(id: id, name: id, owner: "me", frequency: nil, quietSince: nil, createdAt: 1)
        }
        let hold = FrequencyDial.codeProtectedHold
        await #expect(throws: StorageError.noFrequency) {
            try await db.insertStation(newcomer("early"), now: hold - 1, band: dial, ownerLimit: nil)
        }
        let late = try await db.insertStation(newcomer("late"), now: hold, band: dial, ownerLimit: nil)
        #expect(late.record.frequency == "90.1")
        #expect(late.reclaimedFrom == "party")
    }

    /// The limit is checked in the insert's transaction: twenty requests at
    /// once can't all see room for one more.
    @Test func theStationsPerOwnerLimitHoldsUnderConcurrency() async throws {
        let db = try AppDatabase.inMemory()
        _ = try await db.createAccount(
            PersonRecord(id: "p1", kind: .user, handle: "hoarder", displayName: "H", passwordHash: nil, createdAt: 0),
            station: StationRecord(
                id: "own", name: "own", owner: "H", ownerID: "p1", frequency: nil, quietSince: 0, createdAt: 0),
            upgrading: false, now: 0, band: .fm)
        let created = try await withThrowingTaskGroup(of: Bool.self) { group in
            for n in 0..<20 {
                group.addTask {
                    let record = StationRecord(
                        id: "s\(n)", name: "s\(n)", owner: "H", ownerID: "p1", frequency: nil, quietSince: 0,
                        createdAt: 0)
                    do {
                        _ = try await db.insertStation(record, now: 0, band: .fm, ownerLimit: 5)
                        return true
                    } catch StorageError.stationLimit(5) {
                        return false
                    }
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(created == 4)
        #expect(try await db.stations(ownedBy: ["p1"]).count == 5)
    }

    @Test func theDatabaseFileUsesWAL() async throws {
        let folder = NSTemporaryDirectory() + "wavelength-storage-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let db = try AppDatabase.open(path: folder + "/test.sqlite")
        let mode = try await db.reader.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
        let synchronous = try await db.reader.read { try Int.fetchOne($0, sql: "PRAGMA synchronous") }
        #expect(synchronous == 2)  // FULL
    }
}
