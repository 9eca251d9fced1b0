import Testing
import WavelengthCore
import WavelengthStore

/// Uploads and tag corrections, alike in every store that keeps people: a
/// quota holds under concurrency, an unshared upload is its uploader's
/// alone, and a correction outlives a rescan of the file.
@Suite("Uploads storage contract")
struct UploadContractTests {
    typealias Uploads = PeopleRepository & OperatorRepository & StationRepository & StationAccessRepository & UploadRepository
        & TagOverrideRepository
        & TrackRepository & LibraryIndex

    static func upload(_ id: String, by person: String, size: Int64 = 100, title: String? = nil) -> TrackRecord {
        var record = TrackRecord(
            id: id,
            file: LibraryContractTests.file(
                "/data/uploads/\(id).mp3", title: title ?? "Tape \(id)", artist: "Home Band", album: "Basement", size: size),
            addedAt: 10)
        record.uploaderID = person
        record.uploadName = "\(id).mp3"
        return record
    }

    static func setUp(_ db: any Uploads) async throws {
        _ = try await PeopleContractTests.signUp(db, PeopleContractTests.user("u1", handle: "ada", name: "Ada"), station: "home-u1")
        _ = try await PeopleContractTests.signUp(db, PeopleContractTests.user("u2", handle: "bo", name: "Bo"), station: "home-u2")
    }

    @Test(arguments: StoreKind.full)
    func racingUploadsKeepToTheQuotaAndTheCap(_ kind: StoreKind) async throws {
        try await kind.withStore(draw: .seeded(3)) { store in
            let db = try #require(store as? any Uploads)
            try await Self.setUp(db)
            let allowance = UploadAllowance(defaultQuotaBytes: 500, serverCapBytes: 800)
            let kept = await withTaskGroup(of: Bool.self) { group in
                for n in 0..<12 {
                    group.addTask {
                        (try? await db.insertUpload(Self.upload("a\(n)", by: "u1"), features: AudioFeatures(), allowance: allowance, at: 10))
                            != nil
                    }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(kept == 5)
            #expect(try await db.uploadUsage(personID: "u1", allowance: allowance) == (used: 500, quota: 500))
            await #expect(throws: StorageError.uploadRefused(.quota(500))) {
                try await db.insertUpload(Self.upload("late", by: "u1"), features: AudioFeatures(), allowance: allowance, at: 11)
            }
            // Bo has his own quota, but the server's cap is shared.
            for n in 0..<3 {
                try await db.insertUpload(Self.upload("b\(n)", by: "u2"), features: AudioFeatures(), allowance: allowance, at: 12)
            }
            await #expect(throws: StorageError.uploadRefused(.cap(800))) {
                try await db.insertUpload(Self.upload("b9", by: "u2"), features: AudioFeatures(), allowance: allowance, at: 13)
            }
            // An administrator's quota for Ada: more room.
            let entry = OperatorContractTests.entry("set-upload-quota", "u1", at: 20)
            #expect(try await db.setUploadQuota(personID: "u1", bytes: 2_000, audit: entry))
            #expect(try await db.uploadUsage(personID: "u1", allowance: allowance).quota == 2_000)
            #expect(try await db.setUploadQuota(personID: "nobody", bytes: 1, audit: entry) == false)
            #expect(try await db.uploadPaths().count == 8)
        }
    }

    @Test(arguments: StoreKind.full)
    func anUnsharedUploadIsItsUploadersAlone(_ kind: StoreKind) async throws {
        try await kind.withStore(draw: .seeded(4)) { store in
            let db = try #require(store as? any Uploads)
            try await Self.setUp(db)
            let allowance = UploadAllowance(defaultQuotaBytes: 1 << 20, serverCapBytes: 1 << 30)
            try await db.insertUpload(
                Self.upload("t1", by: "u1", title: "Secret Demo"), features: AudioFeatures(), allowance: allowance, at: 10)
            #expect(try await db.search("secret", limit: 5, viewer: "u1").map(\.id) == ["t1"])
            #expect(try await db.search("secret", limit: 5, viewer: "u2").isEmpty)
            #expect(try await db.search("secret", limit: 5).isEmpty)
            #expect(try await db.artists(viewer: "u2").isEmpty)
            #expect(try await db.artists(viewer: "u1").map(\.name) == ["Home Band"])
            #expect(try await db.albums(artist: nil, viewer: "u2").isEmpty)
            #expect(try await db.tracks(artist: nil, album: nil, limit: 5, offset: 0, viewer: "u1").map(\.id) == ["t1"])
            #expect(try await db.poolTracks().map(\.privateTo) == ["u1"])
            #expect(try await db.upload(contentFingerprint: "fp-/data/uploads/t1.mp3", size: 100, visibleTo: "u2") == nil)
            #expect(try await db.upload(contentFingerprint: "fp-/data/uploads/t1.mp3", size: 100, visibleTo: "u1")?.id == "t1")

            #expect(try await db.setShared(trackID: "t1", true)?.shared == true)
            #expect(try await db.search("secret", limit: 5, viewer: "u2").map(\.id) == ["t1"])
            #expect(try await db.poolTracks().map(\.privateTo) == [nil])
            #expect(try await db.uploads(by: "u1", limit: 5, offset: 0).map(\.id) == ["t1"])
            #expect(try await db.allUploads(limit: 5, offset: 0).map(\.uploaderID) == ["u1"])

            let removed = try await db.deleteUpload(trackID: "t1", audit: OperatorContractTests.entry("remove-upload", "t1", at: 30))
            #expect(removed?.path == "/data/uploads/t1.mp3")
            #expect(try await db.track(id: "t1") == nil)
            #expect(try await db.deleteUpload(trackID: "t1", audit: nil) == nil)
            #expect(try await db.auditLog(before: nil, limit: 5).map(\.action) == ["remove-upload"])
        }
    }

    @Test(arguments: StoreKind.full)
    func aTagCorrectionOutlivesARescanAndADeletedPersonsUploadsGo(_ kind: StoreKind) async throws {
        try await kind.withStore(draw: .seeded(5)) { store in
            let db = try #require(store as? any Uploads)
            try await Self.setUp(db)
            let file = LibraryContractTests.file("/m/a.mp3", title: "Untitled 1", artist: "Unknown Artist", album: "Rips")
            try await db.applyScan(ScanChanges(added: [file]))
            let track = try #require(try await db.search("untitled", limit: 1).first)
            let fix = TagOverride(title: "Blue Monday", artist: "New Order")
            let entry = OperatorContractTests.entry("fix-tags", track.id, at: 40)
            let fixed = try #require(try await db.setTagOverride(trackID: track.id, fix, tags: fix.applied(to: file.metadata.tags), audit: entry))
            #expect(fixed.title == "Blue Monday" && fixed.artist == "New Order" && fixed.albumArtist == "New Order")
            #expect(fixed.album == "Rips")
            #expect(try await db.search("monday", limit: 5).map(\.id) == [track.id])
            #expect(try await db.search("untitled", limit: 5).isEmpty)
            // The file changes: its new tags are read, the correction stays over them.
            var changed = LibraryContractTests.file("/m/a.mp3", title: "Untitled 2", artist: "Unknown Artist", album: "Rips 2", size: 200)
            changed.stamp.mtimeNs = 2
            try await db.applyScan(ScanChanges(updated: [(trackID: track.id, file: changed)]))
            let rescanned = try #require(try await db.track(id: track.id))
            #expect(rescanned.title == "Blue Monday" && rescanned.artist == "New Order" && rescanned.album == "Rips 2")
            #expect(try await db.tagOverride(trackID: track.id) == fix)
            // Given back: the file's own.
            _ = try await db.setTagOverride(trackID: track.id, TagOverride(), tags: changed.metadata.tags, audit: entry)
            #expect(try await db.track(id: track.id)?.title == "Untitled 2")
            #expect(try await db.tagOverride(trackID: track.id) == nil)
            #expect(try await db.setTagOverride(trackID: "nope", fix, tags: changed.metadata.tags, audit: entry) == nil)

            let allowance = UploadAllowance(defaultQuotaBytes: 1 << 20, serverCapBytes: 1 << 30)
            try await db.insertUpload(Self.upload("t2", by: "u2"), features: AudioFeatures(), allowance: allowance, at: 10)
            let gone = try #require(try await db.deletePerson(id: "u2", audit: OperatorContractTests.entry("delete", "u2", at: 50)))
            #expect(gone.uploads.map(\.id) == ["t2"])
            #expect(try await db.track(id: "t2") == nil)
        }
    }
}
