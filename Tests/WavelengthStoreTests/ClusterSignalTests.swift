import Foundation
import Testing
import WavelengthCore
@testable import WavelengthPostgres
import WavelengthStore
import WavelengthTestSupport

/// The cluster's signals on a real PostgreSQL: an outbox read in one order,
/// and each node's one LISTEN connection, which comes back by itself when
/// PostgreSQL drops it, with a wake-up for what it may have missed.
@Suite(
    "Cluster signals", .enabled(if: PostgresServer.installed != nil, Comment(rawValue: PostgresServer.missing)),
    .timeLimit(.minutes(2)))
struct ClusterSignalTests {
    @Test func signalsAreReadInOrderAndPruned() async throws {
        try await StationLeaseTests.withNodes(["a", "b"]) { nodes in
            let (a, b) = (nodes[0], nodes[1])
            #expect(try await b.signals(after: 0, limit: 10).isEmpty)
            // Published at once from both nodes: one order, nothing lost.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<40 {
                    let node = index.isMultiple(of: 2) ? a : b
                    group.addTask {
                        try await node.publish(
                            ClusterSignal(kind: .enteredLobby, stationID: "s1", personID: "p\(index)", node: ""))
                    }
                }
                try await group.waitForAll()
            }
            let all = try await b.signals(after: 0, limit: 100)
            #expect(all.count == 40)
            #expect(all.map(\.sequence) == all.map(\.sequence).sorted())
            #expect(Set(all.compactMap(\.personID)).count == 40)
            #expect(Set(all.map(\.node)) == ["a", "b"])
            let later = try await a.signals(after: all[29].sequence, limit: 5)
            #expect(later.map(\.sequence) == Array(all[30..<35]).map(\.sequence))
            // Ids too long to be real are never published.
            try await a.publish(ClusterSignal(kind: .stationChanged, stationID: String(repeating: "x", count: 65), node: ""))
            #expect(try await b.signals(after: 0, limit: 100).count == 40)

            try await a.pruneSignals(olderThan: 0)
            #expect(try await b.signals(after: 0, limit: 100).isEmpty)
        }
    }

    @Test func theListenConnectionComesBackAfterPostgreSQLDropsIt() async throws {
        try await StationLeaseTests.withNodes(["a", "b"]) { nodes in
            let (a, b) = (nodes[0], nodes[1])
            let (wakeUps, waker) = AsyncStream.makeStream(of: SignalWakeUp.self)
            let listening = Task { await b.listenForSignals { waker.yield($0) } }
            defer { listening.cancel() }
            var wakes = wakeUps.makeAsyncIterator()
            // Listening: one wake-up at the start, for what came before.
            #expect(await wakes.next() == .listening)
            try await a.publish(ClusterSignal(kind: .stationChanged, stationID: "s1", node: ""))
            #expect(await wakes.next() == .notified)

            // PostgreSQL drops B's LISTEN connection (an admin, a restart, a failover).
            let dropped = try await a.query(
                """
                SELECT pg_terminate_backend(pid) AS dropped FROM pg_stat_activity
                WHERE application_name = \(PostgresStore.listenerName(node: "b"))
                """
            ).all { try $0.value("dropped", as: Bool.self) }
            #expect(dropped == [true])
            // B knows it lost it, listens again and says so (a signal may
            // have come while it was away), then hears the next one.
            #expect(await wakes.next() == .lost)
            #expect(await wakes.next() == .listening)
            try await a.publish(ClusterSignal(kind: .enteredLobby, stationID: "s1", personID: "ann", node: ""))
            #expect(await wakes.next() == .notified)
            #expect(try await b.signals(after: 0, limit: 10).map(\.kind) == [.stationChanged, .enteredLobby])

            // The node stops: listening ends, and its connection closes.
            listening.cancel()
            await listening.value
            // (Its server process leaves pg_stat_activity as it exits, soon after.)
            var left: Int? = nil
            for _ in 0..<200 where left != 0 {
                if left != nil { try await Task.sleep(for: .milliseconds(50)) }
                left = try await a.query(
                    """
                    SELECT count(*) AS left FROM pg_stat_activity
                    WHERE application_name = \(PostgresStore.listenerName(node: "b"))
                    """
                ).first { try $0.value("left", as: Int.self) }
            }
            #expect(left == 0)
        }
    }
}
