import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Subprocess
import Testing
import WavelengthCore
import WavelengthLibrary
import WavelengthWire

@testable import WavelengthServer

/// Uploads end to end, with files FFmpeg makes: an upload is its
/// uploader's until shared, the same audio is not stored twice (the same
/// bytes, or the same recording re-encoded), bad files and full quotas get
/// clear errors and leave nothing behind, and administrators remove
/// uploads, set quotas and fix tags.
@Suite("Uploads", .timeLimit(.minutes(5)))
struct UploadsTests {
    /// A 25 s melody with tags, encoded as `codec` ("mp3", "ogg", "flac").
    static func song(_ title: String, seed: UInt64 = 7, as format: String = "mp3", seconds: Int = 25) async throws -> Data {
        let path = NSTemporaryDirectory() + "wavelength-song-\(UUID().uuidString).\(format)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let codec: [String] =
            switch format {
            case "mp3": ["-c:a", "libmp3lame", "-b:a", "128k"]
            case "ogg": ["-c:a", "libvorbis", "-q:a", "3"]
            default: []
            }
        try await ffmpeg(
            ["-nostdin", "-v", "error", "-f", "lavfi", "-i", MelodyRecipe.lavfi(seed: seed), "-t", "\(seconds)",
             "-metadata", "title=\(title)", "-metadata", "artist=Porch Band", "-metadata", "album=Summer Tapes"]
                + codec + [path])
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    static func send(_ client: some TestClientProtocol, _ bytes: Data, name: String, as account: TestAccount?) async throws
        -> TestResponse
    {
        try await client.upload(
            "/api/uploads?name=\(name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name)", as: account,
            bytes: bytes, type: "application/octet-stream")
    }

    static func search(_ client: some TestClientProtocol, _ q: String, as account: TestAccount?) async throws -> [String] {
        try await client.send("/api/library/search?q=\(q)", .get, as: account).decode(SearchResponse.self).tracks.map(\.title)
    }

    static func leftovers(_ server: TestServer) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: server.dataDirectory + "/uploads/incoming")
    }

    @Test func anUploadIsItsUploadersUntilSharedAndTheSameAudioIsStoredOnce() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let ana = try await client.signUp(name: "Ana"), bo = try await client.signUp(name: "Bo")
            let admin = try await client.signUp(name: "Admin")
            try await AdminTests.grant(server, admin)
            let song = try await Self.song("Porch Light")

            let made = try await Self.send(client, song, name: "porch light.mp3", as: ana)
            #expect(made.status == .created)
            let upload = try #require(try made.decode(UploadReceipt.self).upload)
            #expect(upload.track.title == "Porch Light" && upload.track.artist == "Porch Band" && upload.name == "porch light.mp3")
            #expect(upload.bytes == Int64(song.count) && !upload.shared)
            // Stored whole, readable by the server's user alone.
            let stored = try #require(try await server.storage.track(id: upload.track.id))
            let attributes = try FileManager.default.attributesOfItem(atPath: stored.path)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            #expect(stored.path.hasPrefix(server.dataDirectory + "/uploads/") && stored.loudness != nil)
            let folder = try FileManager.default.attributesOfItem(atPath: server.dataDirectory + "/uploads")
            #expect((folder[.posixPermissions] as? Int) == 0o700)

            // Hers alone: in her search and her tracks, no one else's.
            #expect(try await Self.search(client, "porch", as: ana) == ["Porch Light"])
            #expect(try await Self.search(client, "porch", as: bo).isEmpty)
            #expect(try await Self.search(client, "porch", as: nil).isEmpty)
            #expect(try await client.send("/api/tracks/\(upload.track.id)", .get, as: bo).status == .notFound)
            #expect(try await client.send("/api/tracks/\(upload.track.id)/audio", .get, as: bo).status == .notFound)
            let audio = try await client.send("/api/tracks/\(upload.track.id)/audio", .get, as: ana)
            #expect(audio.status == .ok && audio.body.readableBytes == song.count)
            let artists = try await client.send("/api/library/artists", .get, as: bo).decode([ArtistSummary].self)
            #expect(!artists.map(\.name).contains("Porch Band"))

            // The same bytes again, and the same recording re-encoded: not stored twice.
            let again = try await Self.send(client, song, name: "copy.mp3", as: ana)
            #expect(again.status == .ok)
            #expect(try again.decode(UploadReceipt.self).duplicate?.id == upload.track.id)
            let ogg = try await Self.send(client, try await Self.song("Porch Light (ogg)", as: "ogg"), name: "porch.ogg", as: ana)
            #expect(ogg.status == .ok)
            #expect(try ogg.decode(UploadReceipt.self).duplicate?.id == upload.track.id)
            // Another song is another track.
            let other = try await Self.send(client, try await Self.song("Screen Door", seed: 99), name: "door.mp3", as: ana)
            #expect(other.status == .created)
            let mine = try await client.send("/api/uploads", .get, as: ana).decode(UploadList.self)
            #expect(mine.uploads.map(\.track.title) == ["Screen Door", "Porch Light"])
            #expect(mine.quotaBytes == UploadAllowance.defaultQuota && mine.usedBytes == mine.uploads.map(\.bytes).reduce(0, +))
            #expect(try Self.leftovers(server).isEmpty)

            // Shared: everyone's. Taken back: hers again. Only she decides.
            #expect(try await client.send("/api/uploads/\(upload.track.id)/share", .post, as: bo).status == .notFound)
            let shared = try await client.send("/api/uploads/\(upload.track.id)/share", .post, as: ana)
            #expect(try shared.decode(UploadView.self).shared)
            #expect(try await Self.search(client, "porch", as: bo) == ["Porch Light"])
            #expect(try await client.send("/api/tracks/\(upload.track.id)", .get, as: bo).status == .ok)
            _ = try await client.send("/api/uploads/\(upload.track.id)/unshare", .post, as: ana)
            #expect(try await Self.search(client, "porch", as: bo).isEmpty)

            // Deleted: by her, or by an administrator, with the log.
            #expect(try await client.send("/api/uploads/\(upload.track.id)", .delete, as: bo).status == .notFound)
            #expect(try await client.send("/api/admin/uploads", .get, as: bo).status == .forbidden)
            let everyone = try await client.send("/api/admin/uploads", .get, as: admin).decode([UploadView].self)
            #expect(everyone.count == 2 && everyone.allSatisfy { $0.uploaderName == "Ana" })
            let removed = try await client.send("/api/uploads/\(upload.track.id)?reason=not%20hers", .delete, as: admin)
            #expect(removed.status == .noContent)
            #expect(!FileManager.default.fileExists(atPath: stored.path))
            #expect(try await client.send("/api/tracks/\(upload.track.id)", .get, as: ana).status == .notFound)
            let log = try await client.send("/api/admin/audit", .get, as: admin).decode([AuditEntryView].self)
            #expect(log.first?.action == "remove-upload" && log.first?.reason == "not hers")
            let own = try #require(mine.uploads.first)
            #expect(try await client.send("/api/uploads/\(own.track.id)", .delete, as: ana).status == .noContent)
            #expect(try await client.send("/api/uploads", .get, as: ana).decode(UploadList.self).uploads.isEmpty)
        }
    }

    /// Someone who learned another person's unshared upload's id (it shows
    /// in their station's timeline and history) can't like it, queue it,
    /// request it or put it in a pool on their own station: it is no track
    /// to them. Its uploader plays it on their own station as before, and a
    /// like made while it was shared is left out once it is taken back.
    @Test func anotherPersonsUnsharedUploadIsNoTrackToThemWhoeverLearnedItsID() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let ana = try await client.signUp(name: "Ana"), bo = try await client.signUp(name: "Bo")
            let made = try await Self.send(client, try await Self.song("Porch Light"), name: "porch.mp3", as: ana)
            let upload = try #require(try made.decode(UploadReceipt.self).upload).track.id
            let refusedAsUnknown = { (response: TestResponse, path: String) in
                #expect(response.status.code >= 400 && response.status.code < 500, "\(path): \(response.status)")
                #expect(response.errorCode == "unknown_track", "\(path): \(String(buffer: response.body))")
            }

            // Likes.
            refusedAsUnknown(try await client.send("/api/me/likes/\(upload)", .put, as: bo), "like")
            // The DJ's commands on Bo's own station.
            for (name, command) in [("append", StationCommand.append(trackID: upload)), ("queueNext", .queueNext(trackID: upload))] {
                let answer = try await client.send(
                    "/api/stations/\(bo.stationID)/commands", .post, as: bo, body: CommandRequest(id: "bo-\(name)", command: command))
                refusedAsUnknown(answer, name)
            }
            // The robot's pool.
            refusedAsUnknown(
                try await client.send("/api/stations/\(bo.stationID)/pool", .put, as: bo, body: StationPool(trackIDs: [upload])), "pool")
            // A party request.
            let party = try await client.send(
                "/api/stations/\(bo.stationID)/party", .patch, as: bo, body: PartySettingsPatch(mode: .requests))
            #expect(party.status == .ok)
            refusedAsUnknown(
                try await client.send(
                    "/api/stations/\(bo.stationID)/commands", .post, as: bo,
                    body: CommandRequest(id: "bo-request", command: .request(trackID: upload))), "request")
            let timeline = try await client.timeline(bo.stationID)
            #expect(!(timeline.current.map { [$0] } ?? []).contains { $0.track.id == upload })
            #expect(!timeline.upNext.contains { $0.track.id == upload })

            // Ana plays her own upload on her own station.
            let hers = try await client.send(
                "/api/stations/\(ana.stationID)/commands", .post, as: ana,
                body: CommandRequest(id: "ana-append", command: .append(trackID: upload)))
            #expect(hers.status == .ok, "\(String(buffer: hers.body))")

            // Shared, Bo likes it; taken back, it leaves his likes.
            _ = try await client.send("/api/uploads/\(upload)/share", .post, as: ana)
            #expect(try await client.send("/api/me/likes/\(upload)", .put, as: bo).status == .ok)
            #expect(try await client.send("/api/me/likes", .get, as: bo).decode([TrackSummary].self).map(\.id) == [upload])
            _ = try await client.send("/api/uploads/\(upload)/unshare", .post, as: ana)
            #expect(try await client.send("/api/me/likes", .get, as: bo).decode([TrackSummary].self).isEmpty)
        }
    }

    /// An unshared upload its uploader plays on their own station is heard
    /// by those who may listen to that station, through the station's own
    /// timeline links (`?station=`), and by nobody else: not by someone who
    /// learned its id and asks without a station, or names a station that
    /// doesn't play it, or one they may not listen to.
    @Test func anUnsharedUploadOnTheAirIsHeardOnlyThroughTheStationPlayingIt() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let ana = try await client.signUp(name: "Ana"), bo = try await client.signUp(name: "Bo")
            let made = try await Self.send(client, try await Self.song("Porch Light"), name: "porch.mp3", as: ana)
            let upload = try #require(try made.decode(UploadReceipt.self).upload).track.id
            let played = try await client.send(
                "/api/stations/\(ana.stationID)/commands", .post, as: ana,
                body: CommandRequest(id: "ana-next", command: .queueNext(trackID: upload)))
            #expect(played.status == .ok, "\(String(buffer: played.body))")
            // Someone listens to Ana's station, so it is on the air.
            let hub = try #require(try await server.services.directory.hub(id: ana.stationID))
            let (_, queue) = AsyncStream<LiveOutgoing>.makeStream()
            try await hub.connect(ConnectionIDs.next(), queue: queue, since: nil)
            let window = try await hub.window()
            let entry = try #require(((window.current.map { [$0] } ?? []) + window.upNext).first { $0.track.id == upload })
            #expect(entry.track.audioURL == "/api/tracks/\(upload)/audio?station=\(ana.stationID)")

            let paths = ["/api/tracks/\(upload)", "/api/tracks/\(upload)/audio"]
            // Without the station, or through a station not playing it: no such track.
            for path in paths {
                for asker in [bo, nil] as [TestAccount?] {
                    #expect(try await client.send(path, .get, as: asker).status == .notFound, "\(path)")
                    let elsewhere = try await client.send(path + "?station=\(bo.stationID)", .get, as: asker)
                    #expect(elsewhere.status == .notFound, "\(path) through Bo's station")
                }
            }
            // Through Ana's public station, its listeners (anyone) hear it.
            let heard = try await client.send(entry.track.audioURL, .get, as: nil)
            #expect(heard.status == .ok && heard.body.readableBytes > 0)
            #expect(try await client.send(paths[0] + "?station=\(ana.stationID)", .get, as: bo).status == .ok)

            // Her station made members-only: Bo, no member, no longer hears it.
            let patched = try await client.send(
                "/api/stations/\(ana.stationID)", .patch, as: ana, body: StationSettingsPatch(visibility: .code))
            #expect(patched.status == .ok)
            #expect(try await client.send(entry.track.audioURL, .get, as: bo).status == .notFound)
            #expect(try await client.send(entry.track.audioURL, .get, as: nil).status == .notFound)
            #expect(try await client.send(entry.track.audioURL, .get, as: ana).status == .ok)
        }
    }

    /// The head of a chunked upload and its first byte, then nothing: a
    /// sender that stalls (or sends a byte a second). The socket stays open
    /// until the test closes it.
    static func stalledUpload(port: Int, as account: TestAccount) async throws -> Int32 {
        let head = "POST /api/uploads?name=slow.mp3 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(account.token)\r\n"
            + "Content-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nI\r\n"
        return try await BlockingIO.pool.runIfActive {
            let fd = try LoopbackSocket.connect(port: port)
            let bytes = Array(head.utf8)
            guard Glibc.send(fd, bytes, bytes.count, 0) == bytes.count else {
                close(fd)
                throw POSIXError(.EPIPE)
            }
            return fd
        }
    }

    /// Two stalled uploads of one person hold their own in-flight slots, not
    /// the server's reading lanes: another person's upload is read and
    /// stored meanwhile, and the same person's third at once is refused
    /// (429 `busy`). (Before, the body was read inside a lane: the two held
    /// both, and everyone else's uploads waited for them.)
    @Test func stalledUploadsHoldOnlyTheirSendersSlots() async throws {
        let server = try await TestServer.make { $0.uploadIdleTimeout = .seconds(600) }
        try await server.application().test(.live) { client in
            let ana = try await client.signUp(name: "Ana"), bo = try await client.signUp(name: "Bo")
            let stalled = [
                try await Self.stalledUpload(port: client.port!, as: ana), try await Self.stalledUpload(port: client.port!, as: ana),
            ]
            defer { for fd in stalled { close(fd) } }
            // Both of Ana's are in flight once her third is refused.
            var third = try await Self.send(client, try await Self.song("Third"), name: "third.mp3", as: ana)
            while third.status != .tooManyRequests {
                #expect(third.status == .created || third.status == .ok, "\(third.status)")
                third = try await Self.send(client, try await Self.song("Third"), name: "third.mp3", as: ana)
            }
            #expect(third.errorCode == "busy")
            let bos = try await Self.send(client, try await Self.song("Bo's Song", seed: 3), name: "bo.mp3", as: bo)
            #expect(bos.status == .created, "\(String(buffer: bos.body))")
        }
    }

    /// A body that sends nothing for the idle time is refused (408) and
    /// leaves no part file.
    @Test func anUploadThatStallsIsRefusedAndLeavesNothing() async throws {
        let server = try await TestServer.make { $0.uploadIdleTimeout = .seconds(1) }
        try await server.application().test(.live) { client in
            let ana = try await client.signUp(name: "Ana")
            let head = "POST /api/uploads?name=slow.mp3 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(ana.token)\r\n"
                + "Content-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nI\r\n"
            let exchange = try await RawHTTP.send(Array(head.utf8), port: client.port!)
            #expect(exchange.statusLine.contains("408"), "\(exchange.answer)")
            #expect(exchange.body.contains("the upload stopped"), "\(exchange.answer)")
            #expect(try Self.leftovers(server).isEmpty)
            // And her next upload goes through: the stalled one gave its slot back.
            #expect(try await Self.send(client, try await Self.song("Next"), name: "next.mp3", as: ana).status == .created)
        }
    }

    @Test func badFilesAndFullQuotasGetClearErrorsAndLeaveNothing() async throws {
        let server = try await TestServer.make { $0.uploadMaxFileBytes = 1_200_000 }
        try await server.application().test(.router) { client in
            let ana = try await client.signUp(name: "Ana"), admin = try await client.signUp(name: "Admin")
            try await AdminTests.grant(server, admin)
            let guest = try await client.guest("Guest")
            let song = try await Self.song("Kept", seconds: 20)
            #expect(try await Self.send(client, song, name: "a.mp3", as: nil).status == .unauthorized)
            #expect(try await Self.send(client, song, name: "a.mp3", as: guest).status == .forbidden)
            for name in ["../../etc/passwd.mp3", "music/a.mp3", "..", "a\\b.mp3", ""] {
                let refused = try await Self.send(client, song, name: name, as: ana)
                #expect(refused.status == .badRequest && refused.errorCode == "bad_file_name", "\(name)")
            }
            let empty = try await Self.send(client, Data(), name: "empty.mp3", as: ana)
            #expect(empty.status == .badRequest && empty.errorCode == "bad_audio")
            let zip = try await Self.send(client, TestAudio.zip, name: "song.mp3", as: ana)
            #expect(zip.status == .badRequest && zip.errorCode == "bad_audio")
            let text = try await Self.send(client, Data(String(repeating: "not music\n", count: 500).utf8), name: "x.flac", as: ana)
            #expect(text.status == .badRequest && text.errorCode == "bad_audio")
            // Half a file: its audio breaks off.
            let half = try await Self.send(client, song.prefix(song.count / 2), name: "half.mp3", as: ana)
            #expect(half.status == .badRequest && half.errorCode == "bad_audio")
            let big = try await Self.send(client, Data(count: 1_300_000), name: "big.wav", as: ana)
            #expect(big.status == .contentTooLarge && big.errorCode == "too_large")

            // A quota an administrator set: what fits goes in, what doesn't is refused.
            #expect(try await client.send("/api/admin/people/\(ana.id)/upload-quota", .post, as: ana, body: UploadQuotaRequest(megabytes: 5)).status == .forbidden)
            #expect(try await client.send("/api/admin/people/\(ana.id)/upload-quota", .post, as: admin, body: UploadQuotaRequest(megabytes: -1)).status == .badRequest)
            #expect(try await client.send("/api/admin/people/nobody/upload-quota", .post, as: admin, body: UploadQuotaRequest(megabytes: 1)).status == .notFound)
            #expect(try await client.send("/api/admin/people/\(ana.id)/upload-quota", .post, as: admin, body: UploadQuotaRequest(megabytes: 0)).status == .noContent)
            let full = try await Self.send(client, song, name: "kept.mp3", as: ana)
            #expect(full.status == .conflict && full.errorCode == "upload_quota")
            #expect(try await client.send("/api/admin/people/\(ana.id)/upload-quota", .post, as: admin, body: UploadQuotaRequest(megabytes: 1)).status == .noContent)
            let over = try await Self.send(client, Data(count: 1_100_000), name: "over.wav", as: ana)
            #expect(over.status == .conflict && over.errorCode == "upload_quota")
            #expect(try await client.send("/api/admin/people/\(ana.id)/upload-quota", .post, as: admin, body: UploadQuotaRequest(megabytes: nil)).status == .noContent)
            #expect(try await Self.send(client, song, name: "kept.mp3", as: ana).status == .created)

            let mine = try await client.send("/api/uploads", .get, as: ana).decode(UploadList.self)
            #expect(mine.uploads.map(\.track.title) == ["Kept"])
            #expect(try Self.leftovers(server).isEmpty)
            let stored = try FileManager.default.contentsOfDirectory(atPath: server.dataDirectory + "/uploads").filter { $0 != "incoming" }
            #expect(stored.count == 1)
        }
    }

    @Test func anAdministratorFixesTagsAndTheFixOutlivesARescan() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let ana = try await client.signUp(), admin = try await client.signUp()
            try await AdminTests.grant(server, admin)
            let track = try #require(try await client.send("/api/library/tracks?limit=1", .get, as: ana).decode([TrackSummary].self).first)
            let fix = TagOverride(title: "Corrected Title Zq", artist: "Right Artist", album: nil)
            #expect(try await client.send("/api/admin/tracks/\(track.id)/tags", .put, as: ana, body: fix).status == .forbidden)
            #expect(try await client.send("/api/admin/tracks/nope/tags", .put, as: admin, body: fix).status == .notFound)
            let tooLong = TagOverride(title: String(repeating: "x", count: 201))
            #expect(try await client.send("/api/admin/tracks/\(track.id)/tags", .put, as: admin, body: tooLong).status == .badRequest)
            let fixed = try await client.send("/api/admin/tracks/\(track.id)/tags", .put, as: admin, body: fix)
            #expect(fixed.status == .ok)
            let view = try fixed.decode(TagFixView.self)
            #expect(view.track.title == "Corrected Title Zq" && view.track.artist == "Right Artist" && view.track.album == track.album)
            #expect(try await Self.search(client, "zq", as: ana) == ["Corrected Title Zq"])
            // A full rescan that finds the file changed keeps the fix.
            let record = try #require(try await server.storage.track(id: track.id))
            let touched = Date().addingTimeInterval(5)
            try FileManager.default.setAttributes([.modificationDate: touched], ofItemAtPath: record.path)
            let roots = try await TestLibrary.shared.roots()
            _ = try await LibraryScanner(index: server.storage).scan(roots: roots)
            #expect(try await server.storage.track(id: track.id)?.title == "Corrected Title Zq")
            // Given back: the file's own.
            let back = try await client.send("/api/admin/tracks/\(track.id)/tags", .put, as: admin, body: TagOverride())
            #expect(try back.decode(TagFixView.self).track.title == track.title)
            let log = try await client.send("/api/admin/audit", .get, as: admin).decode([AuditEntryView].self)
            #expect(log.prefix(2).map(\.action) == ["fix-tags", "fix-tags"])
        }
    }
}

/// An upload cut off by a `kill -9` leaves neither a track nor a file.
@Suite("Uploads across a crash", .timeLimit(.minutes(5)))
struct UploadsProcessTests {
    @Test func anUploadCutOffByAKillIsAbsentAfterTheRestart() async throws {
        let libraries = try await TestLibrary.shared.roots()
        let data = NSTemporaryDirectory() + "wavelength-upload-crash-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: data) }
        let handle = TestHandles.next("u")
        let song = try await UploadsTests.song("Whole", seconds: 20)
        let token = try await ServerProcess.run(dataDirectory: data, libraries: libraries) { server in
            let made = try await HTTPClient.shared.send(
                .POST, server.baseURL + "/api/auth/signup", body: try JSONEncoder().encode(RegistrationTests.signup(handle)))
            let token = try #require(try JSONDecoder().decode(AuthResponse.self, from: made.body).tokens?.accessToken)
            // One whole upload, acknowledged.
            let kept = try await HTTPClient.shared.send(.POST, server.baseURL + "/api/uploads?name=whole.mp3", body: song, key: token)
            #expect(kept.status == .created)
            // Another, half sent when the server dies.
            let fd = try LoopbackSocket.connect(port: server.port)
            defer { close(fd) }
            let head = "POST /api/uploads?name=cut.mp3 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n"
                + "Content-Type: audio/mpeg\r\nContent-Length: \(song.count)\r\n\r\n"
            let first = Array(head.utf8) + Array(song.prefix(song.count / 2))
            let written = first.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            #expect(written == first.count)
            // The server is reading it: then it dies.
            #expect(await server.log.wait(until: { $0.contains("Upload started: cut.mp3") }), "the upload never started")
            await server.kill9()
            return token
        }
        _ = try await ServerProcess.run(dataDirectory: data, libraries: libraries) { server in
            let list = try await HTTPClient.shared.send(.GET, server.baseURL + "/api/uploads", key: token.answer)
            let uploads = try JSONDecoder().decode(UploadList.self, from: list.body)
            #expect(uploads.uploads.map(\.name) == ["whole.mp3"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: data + "/uploads/incoming").isEmpty)
            let files = try FileManager.default.contentsOfDirectory(atPath: data + "/uploads").filter { $0 != "incoming" }
            #expect(files.count == 1)
        }
    }
}
