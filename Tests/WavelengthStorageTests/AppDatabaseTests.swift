import Foundation
import GRDB
import Testing
import WavelengthCore
import WavelengthLibrary
@testable import WavelengthStorage

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

    @Test func stationsRoundTripWithTimelineHistoryAndCommands() async throws {
        let db = try AppDatabase.inMemory()
        let record = StationRecord(
            id: "s1", name: "One", owner: "me", ownerKeyHash: "h", frequency: "101.1", quietSince: nil, createdAt: 5)
        try await db.insertStation(record)
        var duplicate = record
        duplicate.id = "s2"
        await #expect(throws: StorageError.frequencyTaken("101.1")) { try await db.insertStation(duplicate) }

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
        #expect(try await db.history(stationID: "s1", before: 100, limit: 5).map(\.id) == outcome.played.map(\.id))
        #expect(try await db.station(frequency: "101.1")?.id == "s1")
        #expect(try await db.takenFrequencies() == ["101.1"])
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
