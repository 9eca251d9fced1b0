import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
import WavelengthCore
@testable import WavelengthPostgres
import WavelengthStore
import WavelengthTestSupport
import WavelengthWire

@testable import WavelengthServer

/// Two nodes on one PostgreSQL: a station runs on the node holding its
/// lease; the other refuses it (503, try again) rather than run it twice;
/// a graceful stop hands it over at once, the station going on where it
/// was; and the first node, taking it back later, reads it again.
@Suite("Two nodes, one PostgreSQL", .enabled(if: TestStore.current == .postgres), .timeLimit(.minutes(5)))
struct ClusterTests {
    static func node(_ name: String, _ postgres: PostgresServer) throws -> PostgresStore {
        var logger = Logger(label: "test.\(name)")
        logger.logLevel = .critical
        let store = PostgresStore(
            address: try postgres.address, logger: logger, node: NodeIdentity(id: name, address: "http://\(name)"),
            idleTimeout: .seconds(2))
        store.deadline = .seconds(60)
        return store
    }

    /// Two nodes, A and B, on a new PostgreSQL: their stores (pools
    /// running, schema migrated, `leaseSeconds` when given) and servers
    /// (sharing their signing keys, as deploy/ says).
    static func withTwoNodes(
        leaseSeconds: Double? = nil,
        _ body: (PostgresServer, (a: PostgresStore, b: PostgresStore), (a: TestServer, b: TestServer)) async throws -> Void
    ) async throws {
        try await PostgresServer.with { postgres in
            let (a, b) = (try Self.node("a", postgres), try Self.node("b", postgres))
            if let leaseSeconds { for store in [a, b] { store.leaseSeconds = leaseSeconds } }
            let pools = [a, b].map { store in Task { await store.run() } }
            defer { for pool in pools { pool.cancel() } }
            try await a.migrate()
            // A signal whose wake-up was lost is read at the next poll: soon, here.
            let nodeA = try await TestServer.make(storage: a) { $0.signalPollWhileListening = .seconds(1) }
            let dataB = NSTemporaryDirectory() + "wavelength-node-b-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: dataB, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try FileManager.default.copyItem(atPath: nodeA.dataDirectory + "/keys", toPath: dataB + "/keys")
            let nodeB = try await TestServer.make(dataDirectory: dataB, storage: b) {
                $0.signalPollWhileListening = .seconds(1)
            }
            try await body(postgres, (a, b), (nodeA, nodeB))
        }
    }

    /// Where each node says it is reached (its --node-address): here, the
    /// port its test server listens on.
    static func reachable(_ postgres: PostgresServer, _ ports: [String: Int]) async throws {
        let rows = ports.sorted { $0.key < $1.key }.map { "('\($0.key)', 'http://127.0.0.1:\($0.value)')" }
        try await postgres.sql(
            """
            INSERT INTO node (id, address) VALUES \(rows.joined(separator: ", "))
            ON CONFLICT (id) DO UPDATE SET address = EXCLUDED.address
            """)
    }

    @Test func aStationRunsOnOneNodeAndMovesAtAGracefulStop() async throws {
        try await Self.withTwoNodes { _, _, nodes in
            let (nodeA, nodeB) = nodes

            // A runs the station: a listener there, and the DJ pauses it (the timeline holds still).
            let (owner, paused) = try await nodeA.application().test(.live) { client in
                let owner = try await client.signUp()
                let dj = LiveClient(port: client.port!, path: "/api/stations/\(owner.stationID)/live", token: owner.token)
                _ = try await dj.snapshot()
                try dj.send(.command(CommandRequest(id: "pause", command: .pause)))
                let ack = try await dj.ack("pause")
                let paused = try await dj.update(atLeast: ack.revision)

                // B won't run it at the same time: try again in a moment.
                try await nodeB.application().test(.router) { client in
                    let refused = try await client.execute(uri: "/api/stations/\(owner.stationID)/timeline", method: .get)
                    #expect(refused.status == .serviceUnavailable)
                    #expect(refused.headers[.retryAfter] == "1")
                }
                dj.close()
                return (owner, paused)
            }

            // A stopped and let the lease go (or, on a machine too loaded to
            // finish the stop, the lease lapses): B takes the station where
            // it was, and runs it on. Clients retry a 503 as told.
            let resumed = try await nodeB.application().test(.router) { client in
                let there = try #require(try await Self.timelineOnceServed(owner.stationID, client))
                #expect(there.revision == paused.revision)
                #expect(there.current?.id == paused.current?.id)
                #expect(there.pausedAt == paused.pausedAt)
                let answer = try await client.send(
                    "/api/stations/\(owner.stationID)/commands", .post, as: owner,
                    body: CommandRequest(id: "resume", command: .resume))
                return try answer.decode(CommandAck.self)
            }
            #expect(resumed.revision > paused.revision)

            // B has no listener, so its keeper lets the lease go; A takes the
            // station back and, since B ran it meanwhile, reads it again.
            try await nodeA.application().test(.router) { client in
                let seen = try await Self.timelineOnceServed(owner.stationID, client)
                #expect(seen?.revision == resumed.revision)
                #expect(seen?.pausedAt == nil)
            }
        }
    }

    /// A node stops with a listener still tuned in: the listener is told
    /// goodbye, and the station's going quiet is saved before its lease is
    /// handed over, so storage doesn't keep it on the air with nobody
    /// listening. (The lease went first before: the save was refused as
    /// another node's, logged "Could not save station … going quiet" at
    /// the end of every such test.)
    @Test func aGracefulStopSavesItsStationsGoingQuietBeforeHandingThemOver() async throws {
        try await Self.withTwoNodes(leaseSeconds: 30) { _, stores, nodes in
            let (owner, listener) = try await nodes.a.application().test(.live) { client in
                let owner = try await client.signUp()
                let listener = LiveClient(port: client.port!, path: "/api/stations/\(owner.stationID)/live")
                _ = try await listener.snapshot()
                #expect(try await stores.a.loadStation(id: owner.stationID)?.state.isOnAir == true)
                // Still tuned in as the node stops.
                return (owner, listener)
            }
            await listener.closed()
            #expect(await listener.closeReason()?.hasPrefix("goingAway") == true)
            #expect(try await stores.a.loadStation(id: owner.stationID)?.state.isOnAir == false)
        }
    }

    /// A listener tunes in just as the renewal lets the quiet station's
    /// lease go: the node claims it again at once, so another node's
    /// request can't start it a second time.
    @Test func aStationTunedInToAsItsLeaseGoesIsClaimedAgain() async throws {
        // Long leases: the keepers' own renewals stay out of the way.
        try await Self.withTwoNodes(leaseSeconds: 30) { _, stores, nodes in
            let (a, (nodeA, nodeB)) = (stores.a, nodes)
            try await nodeA.application().test(.live) { client in
                let owner = try await client.signUp()
                #expect(try await Self.timelineOnceServed(owner.stationID, client) != nil)
                // The renewal finds the station quiet...
                let directory = nodeA.services.directory
                await directory.countJoining(for: .zero)
                let active = await directory.activeStations()
                #expect(!active.contains(owner.stationID))
                // ...a listener tunes in before it lets the lease go...
                let listener = LiveClient(port: client.port!, path: "/api/stations/\(owner.stationID)/live")
                defer { listener.close() }
                _ = try await listener.snapshot()
                let lost = try await a.renewLeases(active: active)
                await directory.renewed(active: active, lost: lost)
                // ...and the station is still A's alone.
                try await nodeB.application().test(.router) { client in
                    let refused = try await client.execute(uri: "/api/stations/\(owner.stationID)/timeline", method: .get)
                    #expect(refused.status == .serviceUnavailable)
                }
                #expect(await directory.activeStations().contains(owner.stationID))
            }
        }
    }

    /// Any node takes a command for any station: B sends it on to A, which
    /// runs the station, and the client gets A's ack (saved, so durable).
    /// A request is sent on once at most, and an owner that doesn't answer
    /// gets the client a 503 to try again.
    @Test func aCommandToAnotherNodeIsForwardedToTheOwner() async throws {
        try await Self.withTwoNodes(leaseSeconds: 30) { postgres, _, nodes in
            let (nodeA, nodeB) = nodes
            try await nodeA.application().test(.live) { clientA in
                try await nodeB.application().test(.live) { clientB in
                    // Where each node says it is reached (its --node-address).
                    try await postgres.sql(
                        """
                        INSERT INTO node (id, address) VALUES ('a', 'http://127.0.0.1:\(clientA.port!)'),
                            ('b', 'http://127.0.0.1:\(clientB.port!)')
                        ON CONFLICT (id) DO UPDATE SET address = EXCLUDED.address
                        """)
                    let owner = try await clientA.signUp()
                    let dj = LiveClient(port: clientA.port!, path: "/api/stations/\(owner.stationID)/live", token: owner.token)
                    defer { dj.close() }
                    let frequency = try #require(try await dj.snapshot().station.frequency)
                    // Tuned by frequency on B: A's answer.
                    let tuned = try await clientB.execute(uri: "/api/frequencies/\(frequency)", method: .get)
                    #expect(tuned.status == .ok)

                    let answer = try await clientB.send(
                        "/api/stations/\(owner.stationID)/commands", .post, as: owner,
                        body: CommandRequest(id: "pause-via-b", command: .pause))
                    #expect(answer.status == .ok)
                    let ack = try answer.decode(CommandAck.self)
                    // A ran it: its listener hears the change.
                    let update = try await dj.update(atLeast: ack.revision)
                    #expect(update.pausedAt != nil)
                    // Links the owner makes point where the client asked, not at A.
                    // With `Content-Length: 0`, as browsers and the SDK send an
                    // empty POST (a chunked body is not held, so not forwarded).
                    let link = try await clientB.execute(
                        uri: "/api/stations/\(owner.stationID)/stream-link", method: .post,
                        headers: [.authorization: "Bearer \(owner.token)"], body: ByteBuffer())
                    #expect(link.status == .ok, "\(String(buffer: link.body))")
                    let mp3 = try link.decode(StreamLink.self).mp3
                    #expect(!mp3.contains(":\(clientA.port!)/"), "\(mp3)")
                    let timeline = try await clientB.execute(uri: "/api/stations/\(owner.stationID)/timeline", method: .get)
                    #expect(timeline.status == .ok)
                    #expect(try timeline.decode(TimelineWindow.self).revision == ack.revision)

                    // Sent on once at most: a forwarded request that finds
                    // the station elsewhere again is told to try again.
                    let twice = try await clientB.execute(
                        uri: "/api/stations/\(owner.stationID)/timeline", method: .get,
                        headers: [HTTPField.Name("X-Wavelength-Forwarded")!: "1"])
                    #expect(twice.status == .serviceUnavailable)
                    #expect(twice.headers[.retryAfter] == "1")

                    // The owner can't be reached: try again, nothing applied.
                    try await postgres.sql("UPDATE node SET address = 'http://127.0.0.1:1' WHERE id = 'a'")
                    let unreached = try await clientB.send(
                        "/api/stations/\(owner.stationID)/commands", .post, as: owner,
                        body: CommandRequest(id: "resume-via-b", command: .resume))
                    #expect(unreached.status == .serviceUnavailable)
                    #expect(unreached.headers[.retryAfter] == "1")
                    let after = try await clientA.execute(uri: "/api/stations/\(owner.stationID)/timeline", method: .get)
                    #expect(try after.decode(TimelineWindow.self).revision == ack.revision)
                }
            }
        }
    }

    /// The timeline, asked for again while the node answers 503 (the
    /// station is on another node until its lease is let go or lapses), as
    /// many times as it takes, bounded.
    /// One lobby at a time across nodes: Ann, in a lobby A runs, joins one B
    /// runs, and A's lobby lets her go, told by B's signal. A signal whose
    /// wake-up never came (written without NOTIFY) is read at the poll.
    @Test func aPersonIsInOneLobbyAcrossNodes() async throws {
        try await Self.withTwoNodes { _, stores, nodes in
            try await nodes.a.application().test(.live) { clientA in
                try await nodes.b.application().test(.live) { clientB in
                    // The first lobby runs on A, the second on B (a station
                    // starts on the node that made it).
                    let first = try await clientA.signUp()
                    let second = try await clientB.signUp()
                    for (host, client) in [(first, clientA), (second, clientB)] as [(TestAccount, any TestClientProtocol)] {
                        let made = try await client.send(
                            "/api/stations/\(host.stationID)/party", .patch, as: host,
                            body: PartySettingsPatch(mode: .lobby))
                        #expect(made.status == .ok)
                    }
                    let ann = try await clientA.guest("Ann")
                    let inFirst = LiveClient(port: clientA.port!, path: "/api/stations/\(first.stationID)/live", token: ann.token)
                    _ = try await inFirst.next { $0.type == "snapshot" }
                    let inSecond = LiveClient(port: clientB.port!, path: "/api/stations/\(second.stationID)/live", token: ann.token)
                    _ = try await inSecond.next { $0.type == "snapshot" }
                    guard case .removed(let person, let reason) = try await inFirst.next(where: { $0.type == "removed" })
                    else { throw LiveClient.ClosedError() }
                    #expect(person.id == ann.id)
                    #expect(reason == "another-lobby")
                    await inFirst.closed()

                    // Another node seats her in the first lobby again; its
                    // signal's wake-up is lost. B reads it at the poll.
                    try await stores.a.query(
                        """
                        INSERT INTO cluster_signal (kind, station_id, person_id, node_id)
                        VALUES ('lobby', \(first.stationID), \(ann.id), 'c')
                        """)
                    guard case .removed(let again, _) = try await inSecond.next(where: { $0.type == "removed" })
                    else { throw LiveClient.ClosedError() }
                    #expect(again.id == ann.id)
                    await inSecond.closed()
                }
            }
        }
    }

    static func timelineOnceServed(_ station: String, _ client: some TestClientProtocol) async throws -> TimelineWindow? {
        for _ in 0..<600 {
            let response = try await client.execute(uri: "/api/stations/\(station)/timeline", method: .get)
            if response.status == .ok { return try response.decode(TimelineWindow.self) }
            #expect(response.status == .serviceUnavailable)
            try await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }
}
