import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WavelengthWire

@Suite("Surviving restarts and crashes", .timeLimit(.minutes(3)), .serialized)
struct PersistenceTests {
    @Test func aRestartResumesAtTheRightTrackAndOffset() async throws {
        let first = try await TestServer.make()
        let (station, key) = try first.firstStation()
        let before = try await first.application().test(.live) { client -> TimelineWindow in
            let listener = LiveClient(port: client.port!, path: "/api/stations/\(station)/live")
            _ = try await listener.snapshot()
            let track = try await client.firstTrack(matching: "cafe")
            try await client.command(station, key: key, id: "keep-me", .queueNext(trackID: track.id))
            let window = try await client.timeline(station)
            listener.close()
            return window
        }
        let saved = before
        // Everything the window showed, on the absolute timeline.
        let schedule = [saved.current].compactMap { $0 } + saved.upNext

        let second = try await TestServer.make(dataDirectory: first.dataDirectory)
        try await second.application().test(.router) { client in
            let after = try await client.timeline(station)
            #expect(after.revision == saved.revision)
            let expected = try #require(schedule.first { $0.start <= after.serverTime && after.serverTime < $0.expiration })
            #expect(after.current?.id == expected.id)
            #expect(after.positionMs == after.serverTime - expected.start)
            #expect(after.upNext.map(\.id) == Array(schedule.drop { $0.id != expected.id }.dropFirst().map(\.id)))
            // The command id is remembered across the restart.
            let resent = try await client.command(station, key: key, id: "keep-me", .queueNext(trackID: "whatever"))
            #expect(try resent.decode(CommandAck.self).duplicate)
        }
    }

    @Test func killDashNineLosesNoAcknowledgedWrite() async throws {
        let data = NSTemporaryDirectory() + "wavelength-kill-\(UUID().uuidString)"
        let libraries = try await TestLibrary.shared.roots()
        let server = try ServerProcess(dataDirectory: data, libraries: libraries)
        try await server.start()
        defer { server.stop() }
        let line = try String(contentsOfFile: data + "/owner-keys.txt", encoding: .utf8).split(separator: " ")
        let (station, key) = (String(line[0]), String(line[2]).trimmingCharacters(in: .whitespacesAndNewlines))
        let http = HTTPClient.shared

        let search = try await http.send(.GET, server.baseURL + "/api/library/search?q=cafe")
        let track = try JSONDecoder().decode(SearchResponse.self, from: search.body).tracks[0]
        // Fire commands back to back and kill the server right after an ack,
        // while later commands are still in flight.
        var acked: [CommandAck] = []
        for i in 0..<40 {
            let body = try JSONEncoder().encode(CommandRequest(id: "k\(i)", command: .append(trackID: track.id)))
            let response = try await http.send(.POST, server.baseURL + "/api/stations/\(station)/commands", body: body, key: key)
            #expect(response.status == .ok)
            acked.append(try JSONDecoder().decode(CommandAck.self, from: response.body))
            if i == 24 {
                // The next request is sent and the process killed without waiting for it.
                let next = try JSONEncoder().encode(CommandRequest(id: "k25", command: .append(trackID: track.id)))
                let url = server.baseURL + "/api/stations/\(station)/commands"
                let inFlight = Task { try? await http.send(.POST, url, body: next, key: key) }
                server.kill9()
                _ = await inFlight.value
                break
            }
        }
        #expect(acked.count == 25)

        let restarted = try ServerProcess(dataDirectory: data, libraries: libraries)
        try await restarted.start()
        defer { restarted.stop() }
        for ack in acked {
            let body = try JSONEncoder().encode(CommandRequest(id: ack.id, command: .append(trackID: track.id)))
            let response = try await http.send(.POST, restarted.baseURL + "/api/stations/\(station)/commands", body: body, key: key)
            let again = try JSONDecoder().decode(CommandAck.self, from: response.body)
            #expect(again.duplicate, "\(ack.id) was acknowledged but lost")
            #expect(again.revision == ack.revision)
        }
        let timeline = try await http.send(.GET, restarted.baseURL + "/api/stations/\(station)/timeline?history=50")
        let window = try JSONDecoder().decode(TimelineWindow.self, from: timeline.body)
        let djEntries = ([window.current].compactMap { $0 } + window.upNext + window.history).filter { $0.source == .dj }
        #expect(djEntries.count >= 25)
        #expect(window.revision >= 25)
        // SIGTERM shuts down gracefully.
        restarted.stop()
        #expect(restarted.process.terminationReason == .exit)
        #expect(restarted.process.terminationStatus == 0)
    }
}
