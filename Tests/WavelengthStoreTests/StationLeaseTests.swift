import Foundation
import Logging
import Testing
import WavelengthCore
@testable import WavelengthPostgres
import WavelengthStore
import WavelengthTestSupport

/// Station leases on a real PostgreSQL, with several stores standing for
/// several nodes: one node runs a station at a time, and a node that lost
/// its lease can't write, even once.
@Suite("Station leases", .enabled(if: PostgresServer.installed != nil, Comment(rawValue: PostgresServer.missing)))
struct StationLeaseTests {
    static func node(_ name: String, on server: PostgresServer, leaseSeconds: Double = 30) throws -> PostgresStore {
        var logger = Logger(label: "test.node.\(name)")
        logger.logLevel = .critical
        let store = PostgresStore(
            address: try server.address, logger: logger, node: NodeIdentity(id: name, address: "http://\(name):8080"))
        store.leaseSeconds = leaseSeconds
        store.deadline = .seconds(30)
        return store
    }

    /// Runs `body` with the nodes' pools running, the schema migrated and one station saved.
    static func withNodes(
        _ names: [String], leaseSeconds: Double = 30, _ body: @escaping @Sendable ([PostgresStore]) async throws -> Void
    ) async throws {
        try await PostgresServer.with { server in
            let nodes = try names.map { try node($0, on: server, leaseSeconds: leaseSeconds) }
            let pools = nodes.map { node in Task { await node.run() } }
            defer { for pool in pools { pool.cancel() } }
            try await nodes[0].migrate()
            for node in nodes { try await node.registerNode() }
            _ = try await nodes[0].insertStation(
                StationRecord(id: "s1", name: "One", owner: "me", frequency: nil, quietSince: nil, createdAt: 1),
                now: 1, band: FrequencyBand(tiers: [["101.1"]]), ownerLimit: nil)
            try await body(nodes)
        }
    }

    static func save(_ node: PostgresStore, revision: Int64) async throws {
        let loaded = try #require(try await node.loadStation(id: "s1")).state
        let state = StationState(id: "s1", revision: revision, timeline: loaded.timeline, quietSince: loaded.quietSince)
        try await node.saveStation(StationSave(state: state, played: [], command: nil))
    }

    /// Waits for a lapsed lease: claims until one succeeds, as many as it takes, bounded.
    static func claimWhenLapsed(_ node: PostgresStore) async throws -> LeaseClaim {
        for _ in 0..<600 {
            let claim = try await node.claimLease(stationID: "s1")
            if case .held = claim { return claim }
            try await Task.sleep(for: .milliseconds(20))
        }
        return try await node.claimLease(stationID: "s1")
    }

    @Test func oneNodeRunsAStationAndALapsedNodeCannotWrite() async throws {
        try await Self.withNodes(["a", "b"]) { nodes in
            let (a, b) = (nodes[0], nodes[1])
            guard case .held = try await a.claimLease(stationID: "s1") else {
                Issue.record("A could not claim the station")
                return
            }
            #expect(try await a.claimLease(stationID: "s1") == .held(epoch: 1, stale: false))  // kept, not renewed
            #expect(try await b.claimLease(stationID: "s1") == .elsewhere(NodeIdentity(id: "a", address: "http://a:8080")))
            try await Self.save(a, revision: 5)
            // B may not write while A runs it, and B's write changes nothing.
            await #expect(throws: StorageError.notOwner("s1")) { try await Self.save(b, revision: 99) }
            await #expect(throws: StorageError.notOwner("s1")) {
                try await b.saveChat(stationID: "s1", .slowMode(seconds: 5))
            }
            #expect(try await a.loadStation(id: "s1")?.state.revision == 5)
            await #expect(throws: StorageError.noSuchStation) { try await a.claimLease(stationID: "nowhere") }
        }
    }

    /// A stops renewing (a pause, a partition): once its lease lapses B
    /// takes the station, and A's next save is refused. When A claims it
    /// back later, it is told its memory of the station is stale.
    @Test func aPausedNodeIsFencedOutAndToldItsMemoryIsStale() async throws {
        try await Self.withNodes(["a", "b"]) { nodes in
            let (a, b) = (nodes[0], nodes[1])
            a.leaseSeconds = 0  // so A's lease lapses the moment it is taken or saved
            _ = try await a.claimLease(stationID: "s1")
            #expect(try await Self.claimWhenLapsed(b) == .held(epoch: 2, stale: false))
            try await Self.save(b, revision: 7)
            await #expect(throws: StorageError.notOwner("s1")) { try await Self.save(a, revision: 100) }
            #expect(try await b.loadStation(id: "s1")?.state.revision == 7)
            try await b.releaseLease(stationID: "s1")
            #expect(try await a.claimLease(stationID: "s1") == .held(epoch: 3, stale: true))
        }
    }

    /// A node renews the stations it still runs and lets go of the quiet
    /// ones; a quiet station it ran may be taken again by it without a
    /// reload when no one else held it since.
    @Test func renewingKeepsActiveStationsAndReleasesQuietOnes() async throws {
        try await Self.withNodes(["a", "b"]) { nodes in
            let (a, b) = (nodes[0], nodes[1])
            _ = try await a.claimLease(stationID: "s1")
            #expect(try await a.renewLeases(active: ["s1"]).isEmpty)
            if case .held = try await b.claimLease(stationID: "s1") { Issue.record("B took a renewed lease") }
            #expect(try await a.renewLeases(active: []).isEmpty)  // quiet: let go
            // A writes again (a command to the quiet station): taken back, no one held it between.
            try await Self.save(a, revision: 3)
            #expect(try await a.loadStation(id: "s1")?.state.revision == 3)
            try await a.releaseLease(stationID: "s1")
            #expect(try await b.claimLease(stationID: "s1") == .held(epoch: 2, stale: false))
            // B held it since: A's write without a new claim (its memory is stale) is refused.
            try await b.releaseLease(stationID: "s1")
            await #expect(throws: StorageError.notOwner("s1")) { try await Self.save(a, revision: 50) }
        }
    }

    /// A loaded node whose renewals come late: its lease lapses over and
    /// over, and each time a listener tuning in takes it back while the
    /// station saves. Nobody else held it, so it is taken back under the
    /// same epoch and no save is refused. (Under a new epoch, a save that
    /// had read the old one was refused as another node's; the next
    /// renewal then counted the station lost and closed its listeners.)
    @Test func aLapsedLeaseTakenBackByItsOwnNodeRefusesNoSaveInFlight() async throws {
        try await Self.withNodes(["a"]) { nodes in
            let a = nodes[0]
            a.leaseSeconds = 0  // lapsed the moment it is taken or saved
            guard case .held = try await a.claimLease(stationID: "s1") else {
                Issue.record("A could not claim the station")
                return
            }
            for round in 1...60 {
                async let claim = a.claimLease(stationID: "s1")
                async let saved: Void = Self.save(a, revision: Int64(round))
                #expect(try await claim == .held(epoch: 1, stale: false))
                try await saved
            }
            #expect(try await a.renewLeases(active: ["s1"]).isEmpty)
            #expect(try await a.loadStation(id: "s1")?.state.revision == 60)
        }
    }

    /// Eight nodes claim the same station at once: exactly one runs it.
    @Test func racingNodesLeaveOneOwner() async throws {
        let names = (0..<8).map { "n\($0)" }
        try await Self.withNodes(names) { nodes in
            let winners = try await withThrowingTaskGroup(of: String?.self) { group in
                for node in nodes {
                    group.addTask {
                        if case .held = try await node.claimLease(stationID: "s1") { return node.node?.id }
                        return nil
                    }
                }
                return try await group.compactMap { $0 }.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(winners.count == 1)
        }
    }
}

/// A node that freezes in the middle of a transaction (SIGSTOP, a paused VM)
/// holds its locks: the other nodes wait at most `Waits.lock` for one, then
/// are told to try again, instead of stalling behind it; and PostgreSQL ends
/// the frozen transaction once it has idled `Waits.idleInTransaction`.
/// (The frozen task itself is left to the pool's end: a task cancelled on a
/// connection PostgreSQL closed under it is postgres-nio's to unwind.)
@Suite("A node frozen mid-transaction", .enabled(if: PostgresServer.installed != nil, Comment(rawValue: PostgresServer.missing)), .timeLimit(.minutes(3)))
struct FrozenNodeTests {
    @Test func holdsNobodyUp() async throws {
        try await PostgresServer.with { server in
            // A minute's idling: A is sure to hold its lock when B asks, on
            // a loaded machine too. (PostgreSQL ending it is PostgreSQL's
            // to do; that each connection asks for it is checked below.)
            let waits = PostgresStore.Waits(lock: .seconds(1), idleInTransaction: .seconds(60))
            let nodes = try ["a", "b"].map { name in
                var logger = Logger(label: "test.node.\(name)")
                logger.logLevel = .critical
                let store = PostgresStore(
                    address: try server.address, logger: logger, node: NodeIdentity(id: name, address: "http://\(name)"),
                    waits: waits)
                // Far longer than any bound here: the bounds, not the deadline, end the waits.
                store.deadline = .seconds(120)
                return store
            }
            let pools = nodes.map { node in Task { await node.run() } }
            defer { for pool in pools { pool.cancel() } }
            let (a, b) = (nodes[0], nodes[1])
            try await a.migrate()
            _ = try await a.insertStation(
                StationRecord(id: "s1", name: "One", owner: "me", frequency: nil, quietSince: nil, createdAt: 1),
                now: 1, band: FrequencyBand(tiers: [["101.1"]]), ownerLimit: nil)
            guard case .held = try await a.claimLease(stationID: "s1") else {
                Issue.record("A could not claim the station")
                return
            }

            // A freezes holding the signals' lock and its station's lease row.
            let (held, holding) = AsyncStream.makeStream(of: Void.self)
            let frozen = Task {
                try await a.transaction { connection in
                    try await connection.query("SELECT pg_advisory_xact_lock(\(PostgresStore.signalLockKey))", logger: a.logger)
                    try await connection.query("SELECT 1 FROM station_lease WHERE station_id = 's1' FOR UPDATE", logger: a.logger)
                    holding.yield()
                    try await Task.sleep(for: .seconds(3600))
                }
            }
            defer { frozen.cancel() }
            var waiting = held.makeAsyncIterator()
            _ = await waiting.next()

            // B is told to try again rather than kept waiting: an outage.
            do {
                try await b.publish(ClusterSignal(kind: .stationChanged, stationID: "s1", node: "b"))
                Issue.record("B published under A's lock")
            } catch {
                #expect((error as? any StorageFault)?.isOutage == true, "\(String(reflecting: error))")
            }
            // Every connection carries both bounds.
            let settings = try await b.query(
                "SELECT current_setting('lock_timeout') AS lock, current_setting('idle_in_transaction_session_timeout') AS idle"
            ).first { (try $0.value("lock", as: String.self), try $0.value("idle", as: String.self)) }
            #expect(settings?.0 == "1s" && settings?.1 == "1min", "\(String(describing: settings))")
            // PostgreSQL ends A's frozen transaction (as its idling bound
            // would): B publishes, and the station stays A's.
            try await b.query(
                "SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE state = 'idle in transaction'")
            var published = false
            for _ in 0..<100 where !published {
                published = (try? await b.publish(ClusterSignal(kind: .stationChanged, stationID: "s1", node: "b"))) != nil
            }
            #expect(published)
            if case .elsewhere(let node) = try await b.claimLease(stationID: "s1") {
                #expect(node.id == "a")
            } else {
                Issue.record("B took a station whose lease A holds")
            }
        }
    }
}
