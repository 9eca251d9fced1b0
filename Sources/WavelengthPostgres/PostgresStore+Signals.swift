import Logging
import PostgresNIO
import WavelengthCore
import WavelengthStore

/// The cluster's signals on PostgreSQL: the `cluster_signal` outbox, read in
/// `sequence` order, and a NOTIFY on `signalChannel` that only wakes the
/// other nodes (it carries the sequence, which nobody relies on: a payload
/// stays far from NOTIFY's 8 KB, and a lost one is found by the poll).
extension PostgresStore: ClusterSignals {
    static let signalChannel = "wavelength_signals"
    /// Serialises publishing, so sequences become visible in their order:
    /// a reader that saw sequence n never later finds an n − 1 committed
    /// after it looked (an identity column alone hands out numbers before
    /// commit, in any commit order). Publishing is rare: a lobby joined, a
    /// code taken back.
    static let signalLockKey: Int64 = 0x5769_7265_7369  // "Wiresi"

    public var signalsNodeID: String { node?.id ?? "" }

    public func publish(_ signal: ClusterSignal) async throws {
        guard signal.stationID.utf8.count <= ClusterSignal.maxIDLength,
            (signal.personID?.utf8.count ?? 0) <= ClusterSignal.maxIDLength
        else { return }
        let node = node?.id ?? signal.node
        try await transaction { connection in
            try await connection.advisoryLock(Self.signalLockKey, logger: logger)
            let sequence = try await connection.query(
                """
                INSERT INTO cluster_signal (kind, station_id, person_id, node_id)
                VALUES (\(signal.kind.rawValue), \(signal.stationID), \(signal.personID), \(node))
                RETURNING sequence
                """, logger: logger
            ).first { try $0.value("sequence", as: Int64.self) }
            try await connection.query(
                "SELECT pg_notify(\(Self.signalChannel), \(String(sequence ?? 0)))", logger: logger)
        }
    }

    public func signals(after sequence: Int64, limit: Int) async throws -> [ClusterSignal] {
        try await query(
            """
            SELECT sequence, kind, station_id, person_id, node_id FROM cluster_signal
            WHERE sequence > \(sequence) ORDER BY sequence LIMIT \(max(1, limit))
            """
        ).all { row in
            ClusterSignal(
                sequence: try row.value("sequence"),
                // A kind from a newer release is read as a reload, which is always safe.
                kind: ClusterSignal.Kind(rawValue: try row.value("kind")) ?? .stationChanged,
                stationID: try row.value("station_id"), personID: try row.value("person_id", as: String?.self),
                node: try row.value("node_id"))
        }
    }

    public func pruneSignals(olderThan seconds: Double) async throws {
        try await query(
            "DELETE FROM cluster_signal WHERE created_at < now() - make_interval(secs => \(seconds))")
    }

    /// The node's one LISTEN connection: its own, never the pool's (a pooled
    /// connection goes back to others, and postgres-nio listens only on a
    /// `PostgresConnection`). Lost, it is opened again with a backoff.
    public func listenForSignals(_ heard: @escaping @Sendable (SignalWakeUp) -> Void) async {
        let configuration: PostgresConnection.Configuration
        do {
            configuration = try address.connectionConfiguration(applicationName: Self.listenerName(node: node?.id))
        } catch {
            return logger.error("Can't listen for the cluster's signals (reading them at the poll only): \(error)")
        }
        var backoff = Self.firstBackoff
        var failing = false
        while !Task.isCancelled {
            do {
                let connection = try await PostgresConnection.connect(
                    configuration: configuration, id: 0, logger: logger)
                do {
                    let wakeUps = try await connection.listen(Self.signalChannel)
                    if failing { logger.notice("Listening for the cluster's signals again") }
                    failing = false
                    backoff = Self.firstBackoff
                    // What was sent while nobody listened is read now.
                    heard(.listening)
                    for try await _ in wakeUps { heard(.notified) }
                } catch {
                    if !Task.isCancelled, !failing {
                        logger.warning("Lost the connection listening for the cluster's signals: \(error)")
                    }
                    failing = true
                }
                heard(.lost)
                try? await connection.close()
            } catch {
                if !Task.isCancelled, !failing {
                    logger.warning("Could not listen for the cluster's signals (reading them at the poll meanwhile): \(error)")
                }
                failing = true
            }
            guard !Task.isCancelled else { return }
            try? await Task.sleep(for: backoff)
            backoff = min(backoff * 2, .seconds(5))
        }
    }

    static let firstBackoff: Duration = .milliseconds(100)

    /// How the LISTEN connection shows in `pg_stat_activity.application_name`.
    static func listenerName(node: String?) -> String {
        "wavelength-listen-\(node ?? "tool")"
    }
}
