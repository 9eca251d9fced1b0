import AsyncHTTPClient
import Foundation
import Testing
import WavelengthWire

/// Music copied into the library folder while the server runs shows up
/// without a restart, and music removed leaves the timelines of stations
/// on the air. A real `wavelength serve` watching a real folder.
@Suite("Music that arrives while the server runs", .enabled(if: TestStore.isSQLite), .timeLimit(.minutes(5)))
struct LibraryWatchTests {
    @Test func musicCopiedInIsFoundAndMusicRemovedLeavesTheTimeline() async throws {
        let demo = try await TestLibrary.shared.roots()[0]
        let files = try Self.audioFiles(under: demo).prefix(4)
        try #require(files.count == 4)
        let work = NSTemporaryDirectory() + "wavelength-watch-\(UUID().uuidString.prefix(8))"
        let library = work + "/library", data = work + "/data"
        defer { try? FileManager.default.removeItem(atPath: work) }
        try FileManager.default.createDirectory(atPath: library + "/First", withIntermediateDirectories: true)
        for (index, file) in files.prefix(2).enumerated() {
            try FileManager.default.copyItem(atPath: file, toPath: library + "/First/\(index)." + (file as NSString).pathExtension)
        }

        _ = try await ServerProcess.run(dataDirectory: data, libraries: [library]) { server in
            #expect(try await Self.trackIDs(server).count == 2)
            // A folder made with a file written in it, and a file written
            // elsewhere and moved in, as copiers do.
            try FileManager.default.createDirectory(atPath: library + "/Second", withIntermediateDirectories: false)
            try FileManager.default.copyItem(atPath: files[2], toPath: library + "/Second/a." + (files[2] as NSString).pathExtension)
            try FileManager.default.copyItem(atPath: files[3], toPath: work + "/b.partial")
            try FileManager.default.moveItem(atPath: work + "/b.partial", toPath: library + "/First/b." + (files[3] as NSString).pathExtension)
            #expect(await server.log.wait(until: { Self.total("added", in: $0) >= 2 }), "\(server.log.text)")
            let all = try await Self.trackIDs(server)
            #expect(all.count == 4)

            // A station on the air with the robot DJ playing from all four.
            let signup = SignupRequest(handle: TestHandles.next("w"), displayName: "Watcher", password: "correct horse", tokens: true)
            let made = try await HTTPClient.shared.send(.POST, server.baseURL + "/api/auth/signup", body: try JSONEncoder().encode(signup))
            let auth = try JSONDecoder().decode(AuthResponse.self, from: made.body)
            let station = try #require(auth.station?.id), token = try #require(auth.tokens?.accessToken)
            let listener = LiveClient(port: server.port, path: "/api/stations/\(station)/live", token: token)
            defer { listener.close() }
            _ = try await listener.snapshot()

            // The first folder goes, files and all.
            try FileManager.default.removeItem(atPath: library + "/First")
            #expect(await server.log.wait(until: { Self.total("removed", in: $0) >= 3 }), "\(server.log.text)")
            #expect(await server.log.wait(until: { $0.contains("Station \(station):") && $0.contains("left the library are off its timeline") }))
            let left = try await Self.trackIDs(server)
            #expect(left.count == 1)
            let gone = all.subtracting(left)
            let window = try JSONDecoder().decode(
                TimelineWindow.self,
                from: try await HTTPClient.shared.send(.GET, server.baseURL + "/api/stations/\(station)/timeline", key: token).body)
            // Nothing still to come plays a file that is gone; one playing
            // when it went was skipped: it ends within the commit lead
            // (`serve`'s 300 ms) of the skip, which came before this answer.
            #expect(window.upNext.allSatisfy { !gone.contains($0.track.id) }, "\(window.upNext.map(\.track.id)) \(gone)")
            if let current = window.current, gone.contains(current.track.id) {
                #expect(current.expiration <= window.serverTime + 300)
            }
        }
    }

    /// The sum of "N <what>" over every "Library rescanned" line of the log.
    static func total(_ what: String, in log: String) -> Int {
        log.split(separator: "\n").filter { $0.contains("Library rescanned") }.reduce(0) { sum, line in
            guard let range = line.range(of: " \(what)") else { return sum }
            let number = line[..<range.lowerBound].split(separator: " ").last.flatMap { Int($0) } ?? 0
            return sum + number
        }
    }

    static func trackIDs(_ server: ServerProcess) async throws -> Set<String> {
        let answer = try await HTTPClient.shared.send(.GET, server.baseURL + "/api/library/tracks?limit=500")
        return Set(try JSONDecoder().decode([TrackSummary].self, from: answer.body).map(\.id))
    }

    static func audioFiles(under folder: String) throws -> [String] {
        let walker = FileManager.default.enumerator(atPath: folder)
        var found: [String] = []
        while let relative = walker?.nextObject() as? String {
            if ["mp3", "ogg", "opus", "flac", "m4a", "wav"].contains((relative as NSString).pathExtension.lowercased()) {
                found.append(folder + "/" + relative)
            }
        }
        return found.sorted()
    }
}
