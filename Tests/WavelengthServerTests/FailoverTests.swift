import AsyncHTTPClient
import Foundation
import NIOCore
import Subprocess
import Testing
import WavelengthCore
import WavelengthTestSupport
import WavelengthWire

@testable import WavelengthServer

/// Two real `wavelength serve` processes on one PostgreSQL behind the shipped
/// HAProxy configuration. The node running a station is killed (kill -9):
/// the other takes the station when its lease lapses, with every
/// acknowledged change. A node that pauses (SIGSTOP) past its lease and
/// wakes can't write the station it lost, even once.
@Suite(
    "Failover between real nodes",
    .enabled(if: TestStore.current == .postgres && HAProxy.isInstalled), .timeLimit(.minutes(5)))
struct FailoverTests {
    @Test func aKilledNodesStationGoesOnElsewhereAndAPausedNodeIsFenced() async throws {
        let libraries = try await TestLibrary.shared.roots()
        try await PostgresServer.with { postgres in
            let database = "postgres://wavelength@/postgres?host=\(postgres.folder)"
            let folders = try (0..<2).map { _ in try Self.dataFolder() }
            defer { for folder in folders { try? FileManager.default.removeItem(atPath: folder) } }
            let arguments = ["--database", database, "--drain", "0"]
            _ = try await ServerProcess.run(dataDirectory: folders[0], libraries: libraries, extraArguments: arguments) { a in
                // The nodes of a cluster share their signing keys (deploy/ says how).
                try FileManager.default.copyItem(atPath: folders[0] + "/keys", toPath: folders[1] + "/keys")
                _ = try await ServerProcess.run(dataDirectory: folders[1], libraries: libraries, extraArguments: arguments) { b in
                    try await HAProxy.with(nodes: [a, b].map { "127.0.0.1:\($0.port)" }) { proxy in
                        try await Self.play([a, b], proxy)
                    }
                }
            }
        }
    }

    private static func play(_ nodes: [ServerProcess], _ proxy: HAProxy) async throws {
        let signup = SignupRequest(handle: TestHandles.next(), displayName: "Night Owl", password: "correct horse", tokens: true)
        let made = try await proxy.send("/api/auth/signup", method: .POST, json: signup)
        #expect(made.status == 201)
        let auth = try JSONDecoder().decode(AuthResponse.self, from: made.body)
        let station = try #require(auth.station?.id), token = try #require(auth.tokens?.accessToken)
        let first = try #require(try await proxy.timelineOnceServed(station))
        let index = try #require(Int(first.dropFirst("node".count))) - 1
        let running = nodes[index]

        // A listener on the node keeps the station (and its lease) there; the
        // DJ pauses it, acknowledged.
        let listener = LiveClient(port: running.port, path: "/api/stations/\(station)/live", token: token)
        defer { listener.close() }
        _ = try await listener.snapshot()
        let paused = try await Self.command(.pause, id: "pause", station, token, proxy)
        let before = try await Self.timeline(station, proxy)
        #expect(before.revision == paused.revision && before.pausedAt != nil)

        // The node pauses past its lease: the other node takes the station,
        // as it was, and a change is acknowledged there.
        running.send(.suspend)
        let taken = try #require(try await proxy.timelineOnceServed(station, notFrom: first))
        let holder = taken == "node1" ? nodes[0] : nodes[1]
        // A listener there keeps the station on that node from now on.
        let keeper = LiveClient(port: holder.port, path: "/api/stations/\(station)/live", token: token)
        defer { keeper.close() }
        _ = try await keeper.snapshot()
        let there = try await Self.timeline(station, proxy)
        #expect(taken != first)
        #expect(there.revision == paused.revision && there.pausedAt == before.pausedAt)
        let resumed = try await Self.command(.resume, id: "resume", station, token, proxy)
        // The paused node wakes, still running the station in its memory.
        running.send(.resume)
        // Straight to it, a command is refused (fenced, or the station is
        // elsewhere), never applied. In its memory the station is paused, so
        // a resume applies there and only the fence stops the save. Marked
        // as forwarded already, so the node doesn't send it on to the owner
        // (where it would be a fresh command, and rightly applied).
        var stale = HTTPClientRequest(url: "\(running.baseURL)/api/stations/\(station)/commands")
        stale.method = .POST
        stale.headers.add(name: "Content-Type", value: "application/json")
        stale.headers.add(name: "Authorization", value: "Bearer \(token)")
        stale.headers.add(name: "X-Wavelength-Forwarded", value: "1")
        stale.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(CommandRequest(id: "stale", command: .resume))))
        let refused = try await HTTPClient.shared.execute(stale, timeout: .seconds(30))
        #expect(refused.status == .serviceUnavailable)
        // Its listener is let go (to reconnect where the station runs).
        await #expect(throws: LiveClient.ClosedError.self) { try await listener.next(where: { _ in false }) }
        let after = try await Self.timeline(station, proxy)
        #expect(after.revision >= resumed.revision && after.pausedAt == nil)

        // The node running it now dies: the first takes it back once its
        // lease lapses, with the acknowledged resume.
        await holder.kill9()
        keeper.close()
        let back = try #require(try await proxy.timelineOnceServed(station, notFrom: taken))
        #expect(back != taken)
        let final = try await Self.timeline(station, proxy)
        #expect(final.revision >= resumed.revision && final.pausedAt == nil)
    }

    /// A stop (SIGTERM) with `--drain`: `/health` says so first, then the
    /// node closes its listeners and lets every lease go before it exits,
    /// so the other node takes the station at once, as it was, without
    /// waiting for the lease to lapse.
    @Test func aStoppedNodeDrainsThenHandsItsStationsOver() async throws {
        let libraries = try await TestLibrary.shared.roots()
        try await PostgresServer.with { postgres in
            let database = "postgres://wavelength@/postgres?host=\(postgres.folder)"
            let folders = try (0..<2).map { _ in try Self.dataFolder() }
            defer { for folder in folders { try? FileManager.default.removeItem(atPath: folder) } }
            let (_, exit) = try await ServerProcess.run(
                dataDirectory: folders[0], libraries: libraries,
                extraArguments: ["--database", database, "--drain", "2", "--health-port", "0"]
            ) { a in
                // The balancer's own port answers `/health` and nothing else.
                _ = await a.log.wait(until: { $0.contains("Health checks answer at") })
                let healthURL = try #require(Self.healthURL(in: a.log.text))
                #expect(try await HTTPClient.shared.send(.GET, healthURL).status == .ok)
                #expect(try await HTTPClient.shared.send(.GET, healthURL.replacingOccurrences(of: "/health", with: "/api/stations")).status == .notFound)
                try FileManager.default.copyItem(atPath: folders[0] + "/keys", toPath: folders[1] + "/keys")
                _ = try await ServerProcess.run(
                    dataDirectory: folders[1], libraries: libraries, extraArguments: ["--database", database, "--drain", "0"]
                ) { b in
                    let signup = SignupRequest(handle: TestHandles.next(), displayName: "Early Bird", password: "correct horse", tokens: true)
                    let made = try await HTTPClient.shared.send(.POST, a.baseURL + "/api/auth/signup", body: try JSONEncoder().encode(signup))
                    #expect(made.status == .created)
                    let auth = try JSONDecoder().decode(AuthResponse.self, from: made.body)
                    let station = try #require(auth.station?.id), token = try #require(auth.tokens?.accessToken)
                    let listener = LiveClient(port: a.port, path: "/api/stations/\(station)/live", token: token)
                    defer { listener.close() }
                    _ = try await listener.snapshot()
                    let pause = try JSONEncoder().encode(CommandRequest(id: "pause", command: .pause))
                    let answer = try await HTTPClient.shared.send(.POST, a.baseURL + "/api/stations/\(station)/commands", body: pause, key: token)
                    #expect(answer.status == .ok)
                    let paused = try JSONDecoder().decode(CommandAck.self, from: answer.body)

                    a.send(.terminate)
                    for url in [a.baseURL + "/health", healthURL] {
                        var draining = false
                        for _ in 0..<600 where !draining && !a.log.hasEnded {
                            draining = (try? await HTTPClient.shared.send(.GET, url))?.status == .serviceUnavailable
                            if !draining { try await Task.sleep(for: .milliseconds(20)) }
                        }
                        #expect(draining, "\(url) never said the node drains")
                    }
                    _ = await a.log.wait(until: { _ in false })
                    // Its listener was let go, to reconnect where the station goes.
                    await #expect(throws: LiveClient.ClosedError.self) { try await listener.next(where: { _ in false }) }
                    // Handed over, not left to lapse: the lease was let go.
                    try await postgres.sql(
                        """
                        DO $$ BEGIN
                            IF NOT EXISTS (SELECT 1 FROM station_lease WHERE station_id = '\(station)' AND expires_at = '-infinity')
                            THEN RAISE EXCEPTION 'the lease was not let go'; END IF;
                        END $$
                        """)
                    let there = try #require(try await Self.timelineOnceServed(station, b))
                    #expect(there.revision == paused.revision && there.pausedAt != nil)
                }
            }
            #expect(exit.isSuccess)
        }
    }

    /// The address in the server's "Health checks answer at …" line.
    static func healthURL(in log: String) -> String? {
        guard let line = log.split(separator: "\n").first(where: { $0.contains("Health checks answer at http://") }),
            let address = line.split(separator: "answer at ").last?.split(separator: " ").first,
            let port = address.split(separator: ":").last?.split(separator: "/").first.flatMap({ Int($0) })
        else { return nil }
        return "http://127.0.0.1:\(port)/health"
    }

    static func timelineOnceServed(_ station: StationID, _ node: ServerProcess) async throws -> TimelineWindow? {
        for _ in 0..<600 {
            let answer = try await HTTPClient.shared.send(.GET, node.baseURL + "/api/stations/\(station)/timeline")
            if answer.status == .ok { return try JSONDecoder().decode(TimelineWindow.self, from: answer.body) }
            #expect(answer.status == .serviceUnavailable)
            try await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    static func dataFolder() throws -> String {
        let folder = NSTemporaryDirectory() + "wavelength-failover-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return folder
    }

    static func command(_ command: StationCommand, id: String, _ station: StationID, _ token: String, _ proxy: HAProxy)
        async throws -> CommandAck
    {
        for _ in 0..<600 {
            let answer = try await proxy.send(
                "/api/stations/\(station)/commands", method: .POST, json: CommandRequest(id: id, command: command), token: token)
            if answer.status == 200 { return try JSONDecoder().decode(CommandAck.self, from: answer.body) }
            #expect(answer.status == 503)
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestFailure("the command \(id) was never taken")
    }

    static func timeline(_ station: StationID, _ proxy: HAProxy) async throws -> TimelineWindow {
        for _ in 0..<600 {
            let answer = try await proxy.send("/api/stations/\(station)/timeline")
            if answer.status == 200 { return try JSONDecoder().decode(TimelineWindow.self, from: answer.body) }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestFailure("the timeline was never served")
    }
}
