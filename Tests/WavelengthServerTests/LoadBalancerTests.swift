import AsyncHTTPClient
import Foundation
import HummingbirdTesting
import NIOCore
import NIOHTTP1
import Subprocess
import Testing
import WavelengthCore
import WavelengthTestSupport
import WavelengthWire

@testable import WavelengthServer

/// Debian's HAProxy, with the shipped `deploy/haproxy.cfg`, in front of three
/// nodes on one PostgreSQL: every request about a station reaches the node
/// running it (never the refusal another node would answer), the stations
/// spread over the nodes, and a draining node is taken out and its stations
/// served by the others.
@Suite(
    "HAProxy in front of three nodes",
    .enabled(if: TestStore.current == .postgres && HAProxy.isInstalled), .timeLimit(.minutes(5)))
struct LoadBalancerTests {
    @Test func aStationsRequestsReachItsNodeAndADrainingNodeIsTakenOut() async throws {
        try await PostgresServer.with { postgres in
            let stores = try ["a", "b", "c"].map { try ClusterTests.node($0, postgres) }
            // Leases that outlast a loaded machine's stalls: here a station
            // moves only when its node lets it go (quiet, or drained), never
            // because a renewal came late.
            for store in stores { store.leaseSeconds = 30 }
            let pools = stores.map { store in Task { await store.run() } }
            defer { for pool in pools { pool.cancel() } }
            try await stores[0].migrate()
            let first = try await TestServer.make(storage: stores[0])
            var made = [first]
            for store in stores.dropFirst() {
                // The nodes of a cluster share their signing keys (deploy/ says how).
                let data = NSTemporaryDirectory() + "wavelength-node-\(UUID().uuidString)"
                try FileManager.default.createDirectory(
                    atPath: data, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                try FileManager.default.copyItem(atPath: first.dataDirectory + "/keys", toPath: data + "/keys")
                made.append(try await TestServer.make(dataDirectory: data, storage: store))
            }
            let nodes = made
            try await nodes[0].application().test(.live) { a in
                try await nodes[1].application().test(.live) { b in
                    try await nodes[2].application().test(.live) { c in
                        try await Self.play(nodes, clients: [a, b, c])
                    }
                }
            }
        }
    }

    private static func play(_ nodes: [TestServer], clients: [any TestClientProtocol]) async throws {
        let ports = clients.map { $0.port! }
        try await HAProxy.with(nodes: ports.map { "127.0.0.1:\($0)" }) { proxy in
            var owners: [TestAccount] = []
            for _ in 0..<12 { owners.append(try await clients[0].signUp()) }

            // Each station is served, through the proxy, by one node: once it
            // answers, later requests reach the same node. (The node that made
            // it at sign-up lets it go at its next renewal, quiet.) Counted,
            // not each asserted: on a loaded machine a health check that takes
            // over 3 s takes a node out for a moment, and its stations' requests
            // go elsewhere meanwhile. Balanced round robin, about a third would.
            var servedBy: [StationID: String] = [:]
            var (asked, sameNode) = (0, 0)
            for owner in owners {
                let station = owner.stationID
                let served = try #require(try await proxy.timelineOnceServed(station))
                servedBy[station] = served
                for _ in 0..<5 {
                    let (status, node) = try await proxy.get("/api/stations/\(station)/timeline")
                    asked += 1
                    if status == 200, node == served { sameNode += 1 }
                }
            }
            #expect(sameNode * 10 >= asked * 8, "\(sameNode) of \(asked) requests reached the station's node")
            // Hashed over the three: twelve stations don't all land on one.
            #expect(Set(servedBy.values).count >= 2, "\(servedBy)")

            // Tuned by frequency on a node that doesn't run the station: sent
            // to the station's id, which the proxy hashes to the node that does.
            let (tuned, node) = try #require(servedBy.first)
            let serving = try #require(Int(node.dropFirst("node".count))) - 1
            let listener = LiveClient(port: ports[serving], path: "/api/stations/\(tuned)/live")
            defer { listener.close() }
            let snapshot = try await listener.snapshot()
            let frequency = try #require(snapshot.station.frequency)

            // A conversion of what the station plays is asked of its node:
            // its timeline's audio names the station, which the proxy hashes
            // (any other node refuses it, 403 not on air). Balanced round
            // robin, one of three would reach it.
            let playing = try #require(snapshot.timeline.current?.track ?? snapshot.timeline.upNext.first?.track)
            #expect(playing.audioURL.hasSuffix("?station=\(tuned)"), "\(playing.audioURL)")
            let format = playing.format == "opus" ? "mp3" : "opus"
            var converted = 0
            for _ in 0..<3 {
                let (status, answeredBy, _) = try await proxy.send(
                    playing.audioURL(as: format), method: .HEAD, timeout: .seconds(120))
                if status == 200, answeredBy == node { converted += 1 }
            }
            #expect(converted >= 2, "\(converted) of 3 conversions reached the station's node")
            // Asked of both other nodes: one node runs the station at a time,
            // so at least one of them doesn't, whichever the station is on by
            // now (the one that does refuses the made-up token).
            var redirects = 0
            for other in clients.indices where other != serving {
                let answer = try await clients[other].execute(uri: "/stream/\(frequency).mp3?token=t", method: .get)
                guard answer.status == .temporaryRedirect else {
                    #expect(answer.status == .forbidden)
                    continue
                }
                #expect(answer.headers[.location] == "/stream/\(tuned).mp3?token=t")
                redirects += 1
            }
            #expect(redirects >= 1)
            listener.close()

            // A node drains: /health says so, the proxy takes it out, and its
            // stations are served by the others.
            let (station, drained) = try #require(servedBy.first)
            let index = try #require(Int(drained.dropFirst("node".count))) - 1
            nodes[index].services.configuration.drain.begin()
            let health = try await clients[index].execute(uri: "/health", method: .get)
            #expect(health.status == .serviceUnavailable)
            var movedTo: String?
            for _ in 0..<600 where movedTo == nil {
                let (status, node) = try await proxy.get("/api/stations/\(station)/timeline")
                if status == 200, let node, node != drained { movedTo = node }
                if movedTo == nil { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(movedTo != nil, "the station stayed on \(drained)")
            // Every station is served, none by the drained node.
            for owner in owners {
                let node = try #require(try await proxy.timelineOnceServed(owner.stationID))
                #expect(node != drained)
            }
        }
    }
}

/// The shipped systemd unit is one systemd takes as it is: no unknown key,
/// no misspelt setting (systemd only warns of those, so any warning fails).
@Suite("The systemd unit", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze")))
struct SystemdUnitTests {
    @Test func systemdVerifiesTheUnit() async throws {
        let folder = NSTemporaryDirectory() + "wavelength-unit-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The binary where this build put it (verify checks it is there).
        let unit = try String(contentsOfFile: HAProxy.deployed("wavelength.service"), encoding: .utf8)
            .replacingOccurrences(of: "/usr/local/bin/wavelength", with: try ServerProcess.executable())
        try unit.write(toFile: folder + "/wavelength.service", atomically: true, encoding: .utf8)
        let result = try await Subprocess.run(
            .name("systemd-analyze"), arguments: ["verify", folder + "/wavelength.service"],
            output: .string(limit: 1 << 16), error: .string(limit: 1 << 16))
        #expect(result.terminationStatus.isSuccess)
        #expect(result.standardOutput + result.standardError == "")
    }
}

/// HAProxy run from the shipped configuration, listening on a Unix socket
/// of the test's own (no port to race for), until the body returns.
struct HAProxy: Sendable {
    let socket: String

    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/sbin/haproxy") }

    /// The shipped files of `deploy/`, from the package's root.
    static func deployed(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("deploy/\(name)").path
    }


    static func with<T: Sendable>(nodes: [String], _ body: (HAProxy) async throws -> T) async throws -> T {
        let folder = NSTemporaryDirectory() + "wavelength-haproxy-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let proxy = HAProxy(socket: folder + "/haproxy.sock")
        var environment: [Environment.Key: String] = ["WAVELENGTH_LISTEN": "unix@\(proxy.socket)"]
        // The configuration names three nodes: with fewer, the rest are an
        // address nobody answers at, which the health checks take out.
        let named = nodes + Array(repeating: "127.0.0.1:1", count: max(0, 3 - nodes.count))
        for (index, node) in named.enumerated() { environment[Environment.Key(stringLiteral: "WAVELENGTH_NODE_\(index + 1)")] = node }
        // Runs in the foreground (-db) until the task is cancelled, which kills it.
        let running = Task {
            try await Subprocess.run(
                .name("haproxy"), arguments: ["-db", "-f", deployed("haproxy.cfg")],
                environment: .inherit.updating(environment), output: .discarded, error: .string(limit: 64 << 10))
        }
        defer { running.cancel() }
        // Ready when it answers on its socket.
        var ready = false
        for _ in 0..<600 where !ready {
            // No socket yet: not started (a connection to it would wait out its timeout).
            if FileManager.default.fileExists(atPath: proxy.socket) {
                ready = (try? await proxy.get("/health").status) == 200
            }
            if !ready { try await Task.sleep(for: .milliseconds(50)) }
        }
        guard ready else {
            running.cancel()
            let outcome = try? await running.value
            throw TestFailure("haproxy did not start: \(outcome?.standardError ?? "it left no message")")
        }
        return try await body(proxy)
    }

    /// A GET through the proxy: the status, and the node that answered.
    func get(_ path: String) async throws -> (status: UInt, node: String?) {
        let (status, node, _) = try await send(path)
        return (status, node)
    }

    /// A request through the proxy: the status, the node that answered, and the body.
    func send(
        _ path: String, method: HTTPMethod = .GET, json: (some Encodable & Sendable)? = String?.none, token: String? = nil,
        timeout: TimeAmount = .seconds(30)
    ) async throws -> (status: UInt, node: String?, body: ByteBuffer) {
        guard let url = URL(httpURLWithSocketPath: socket, uri: path) else { throw TestFailure("no URL for \(path)") }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = method
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(json)))
        }
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        let response = try await HTTPClient.shared.execute(request, timeout: timeout)
        let body = try await response.body.collect(upTo: 1 << 20)
        return (response.status.code, response.headers.first(name: "X-Wavelength-Node"), body)
    }

    /// The node that serves the station's timeline, asked again while the
    /// answer is 503 (the station is let go elsewhere first), bounded.
    func timelineOnceServed(_ station: StationID) async throws -> String? {
        for _ in 0..<600 {
            let (status, node) = try await get("/api/stations/\(station)/timeline")
            if status == 200 { return node }
            #expect(status == 503)
            try await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    /// The node that serves the station once it isn't `node` (stopped or
    /// killed): until the proxy takes that node out, a request may find it
    /// silent, and until its lease lapses the others answer 503.
    func timelineOnceServed(_ station: StationID, notFrom node: String) async throws -> String? {
        for _ in 0..<300 {
            let answer = try? await send("/api/stations/\(station)/timeline", timeout: .seconds(2))
            if let answer, answer.status == 200, let served = answer.node, served != node { return served }
            try await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }
}
