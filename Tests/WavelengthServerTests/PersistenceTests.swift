import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import Subprocess
import Testing
import WavelengthWire

@Suite("Surviving restarts and crashes", .timeLimit(.minutes(5)), .serialized)
struct PersistenceTests {
    @Test func aRestartResumesAtTheRightTrackAndOffset() async throws {
        let first = try await TestServer.make()
        let (before, owner) = try await first.application().test(.live) { client -> (TimelineWindow, TestAccount) in
            let owner = try await client.signUp()
            let station = owner.stationID
            let listener = LiveClient(port: client.port!, path: "/api/stations/\(station)/live")
            _ = try await listener.snapshot()
            let track = try await client.firstTrack(matching: "cafe")
            let ack = try await client.command(station, key: owner.token, id: "keep-me", .queueNext(trackID: track.id))
            #expect(ack.status == .ok)
            let window = try await client.timeline(station)
            listener.close()
            return (window, owner)
        }
        let saved = before
        let station = owner.stationID
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
            // The command id is remembered across the restart, and so is the
            // owner's session: the access token still works.
            let resent = try await client.command(station, key: owner.token, id: "keep-me", .queueNext(trackID: "whatever"))
            #expect(resent.status == .ok)
            #expect(try resent.decode(CommandAck.self).duplicate)
            let access = try await client.send("/api/stations/\(station)/access", .get, as: owner)
            #expect(try access.decode(StationAccess.self).role == .owner)
        }
    }

    @Test func killDashNineLosesNoAcknowledgedWrite() async throws {
        let data = NSTemporaryDirectory() + "wavelength-kill-\(UUID().uuidString)"
        let libraries = try await TestLibrary.shared.roots()
        let http = HTTPClient.shared
        let (first, killed) = try await ServerProcess.run(dataDirectory: data, libraries: libraries) {
            server -> (acked: [CommandAck], station: String, key: String, trackID: String) in
            // Sign up over HTTP: the server is another process.
            let signup = try JSONEncoder().encode(
                SignupRequest(handle: TestHandles.next("k"), displayName: "Kay", password: "correct horse", tokens: true))
            let signedUp = try await http.send(.POST, server.baseURL + "/api/auth/signup", body: signup)
            #expect(signedUp.status == .created)
            let auth = try JSONDecoder().decode(AuthResponse.self, from: signedUp.body)
            let station = try #require(auth.station?.id)
            let key = try #require(auth.tokens?.accessToken)

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
                    await server.kill9()
                    _ = await inFlight.value
                    break
                }
            }
            return (acked, station, key, track.id)
        }
        #expect(killed == .signaled(SIGKILL))
        #expect(first.acked.count == 25)

        let (_, stopped) = try await ServerProcess.run(dataDirectory: data, libraries: libraries) { restarted in
            for ack in first.acked {
                let body = try JSONEncoder().encode(CommandRequest(id: ack.id, command: .append(trackID: first.trackID)))
                let response = try await http.send(
                    .POST, restarted.baseURL + "/api/stations/\(first.station)/commands", body: body, key: first.key)
                let again = try JSONDecoder().decode(CommandAck.self, from: response.body)
                #expect(again.duplicate, "\(ack.id) was acknowledged but lost")
                #expect(again.revision == ack.revision)
            }
            let timeline = try await http.send(.GET, restarted.baseURL + "/api/stations/\(first.station)/timeline?history=50")
            let window = try JSONDecoder().decode(TimelineWindow.self, from: timeline.body)
            let djEntries = ([window.current].compactMap { $0 } + window.upNext + window.history).filter { $0.source == .dj }
            #expect(djEntries.count >= 25)
            #expect(window.revision >= 25)
            // Leaving the block stops the server with SIGTERM.
        }
        // SIGTERM shuts down gracefully.
        #expect(stopped == .exited(0))
    }
}
