import PostgresNIO
import Synchronization
import WavelengthCore
import WavelengthStore

/// What this node knows of its leases: the epoch of each it holds, and the
/// last epoch it held of every station it ever ran (to tell whether another
/// node held a station since: then its memory of the station is stale).
final class LeaseBook: Sendable {
    private struct State {
        var held: [StationID: Int64] = [:]
        var known: [StationID: Int64] = [:]
    }

    private let state = Mutex(State())
    /// Set at a graceful stop: no lease is taken from then on.
    private let closed = Atomic<Bool>(false)

    var isClosed: Bool { closed.load(ordering: .acquiring) }
    func close() { closed.store(true, ordering: .releasing) }
    func open() { closed.store(false, ordering: .releasing) }

    func held(_ id: StationID) -> Int64? { state.withLock { $0.held[id] } }
    var allHeld: [StationID: Int64] { state.withLock { $0.held } }

    /// Records a claim; answers whether another node held it since this one
    /// last did: only another node's claim moves the epoch.
    func claimed(_ id: StationID, epoch: Int64) -> Bool {
        state.withLock { state in
            let last = state.known[id]
            state.held[id] = epoch
            state.known[id] = epoch
            guard let last else { return false }
            return epoch != last
        }
    }

    /// The epoch this node last held, if it ever did.
    func known(_ id: StationID) -> Int64? { state.withLock { $0.known[id] } }

    func letGo(_ ids: some Sequence<StationID>) {
        state.withLock { state in for id in ids { state.held.removeValue(forKey: id) } }
    }

    /// Lets go of each station held under exactly the epoch given (a newer
    /// claim of it stays).
    func letGo(_ epochs: [StationID: Int64]) {
        state.withLock { state in
            for (id, epoch) in epochs where state.held[id] == epoch { state.held.removeValue(forKey: id) }
        }
    }
}

extension PostgresStore: StationLeases {
    public func claimLease(stationID: StationID) async throws -> LeaseClaim {
        guard let node else { return .held(epoch: 0, stale: false) }
        let ttl = leaseSeconds
        let book = leases
        return try await transaction { connection in
            try await Self.claim(stationID, node: node, ttl: ttl, book: book, connection, logger: logger)
        }
    }

    /// Takes the lease when it is free, lapsed or this node's, inside the caller's transaction.
    ///
    /// The epoch grows only when the lease changes node. A lease this node
    /// let go or let lapse (a renewal late on a loaded machine), still its
    /// own in the row, is taken back under the same epoch: nobody held it
    /// between, so nothing this node remembers is stale, and a save already
    /// under way with that epoch still lands. (A new epoch there refused
    /// such saves as another node's, and the next renewal then counted the
    /// station lost and closed its listeners, on a node that never lost it.)
    /// Node ids are new at every start, so another process is always
    /// another node.
    static func claim(
        _ stationID: StationID, node: NodeIdentity, ttl: Double, book: LeaseBook, _ connection: PostgresConnection,
        logger: Logger
    ) async throws -> LeaseClaim {
        // A stopping node runs nothing more: ask again elsewhere.
        guard !book.isClosed else { return .elsewhere(NodeIdentity(id: node.id, address: "")) }
        let epoch: Int64?
        do {
            epoch = try await connection.query(
                """
                INSERT INTO station_lease AS l (station_id, node_id, epoch, expires_at)
                VALUES (\(stationID), \(node.id), 1, clock_timestamp() + make_interval(secs => \(ttl)))
                ON CONFLICT (station_id) DO UPDATE SET
                    epoch = CASE WHEN l.node_id = EXCLUDED.node_id THEN l.epoch ELSE l.epoch + 1 END,
                    node_id = EXCLUDED.node_id, expires_at = EXCLUDED.expires_at
                WHERE l.node_id = EXCLUDED.node_id OR l.expires_at <= clock_timestamp()
                RETURNING epoch
                """, logger: logger
            ).first { try $0.value("epoch", as: Int64.self) }
        } catch let error as PSQLError where error.sqlState == PostgresError.Code.foreignKeyViolation.raw {
            throw StorageError.noSuchStation
        }
        if let epoch {
            return .held(epoch: epoch, stale: book.claimed(stationID, epoch: epoch))
        }
        let holder = try await connection.query(
            """
            SELECT l.node_id, COALESCE(n.address, '') AS address FROM station_lease l
            LEFT JOIN node n ON n.id = l.node_id WHERE l.station_id = \(stationID)
            """, logger: logger
        ).first { NodeIdentity(id: try $0.value("node_id"), address: try $0.value("address")) }
        return .elsewhere(holder ?? NodeIdentity(id: "", address: ""))
    }

    public func releaseLease(stationID: StationID) async throws {
        try await releaseLeases([stationID])
    }

    /// Lets go of the leases of `ids` this node holds, in one statement.
    /// Each row stays (its epoch must keep growing), lapsed at once, and
    /// only under the epoch this node holds (a newer claim stays).
    private func releaseLeases(_ ids: some Collection<StationID>) async throws {
        guard let node else { return }
        let epochs = ids.compactMap { id in leases.held(id).map { (id, $0) } }
        guard !epochs.isEmpty else { return }
        leases.letGo(Dictionary(epochs, uniquingKeysWith: { a, _ in a }))
        try await query(
            """
            UPDATE station_lease AS l SET expires_at = '-infinity'
            FROM unnest(\(epochs.map(\.0))::text[], \(epochs.map(\.1))::bigint[]) AS h(station_id, epoch)
            WHERE l.station_id = h.station_id AND l.epoch = h.epoch AND l.node_id = \(node.id)
            """)
    }

    public var renewalInterval: Duration? { node == nil ? nil : .milliseconds(Int64(leaseSeconds * 1000 / 3)) }

    public func renewLeases(active: Set<StationID>) async throws -> Set<StationID> {
        guard let node else { return [] }
        let held = leases.allHeld
        let renewing = held.filter { active.contains($0.key) }
        try await releaseLeases(held.keys.filter { !active.contains($0) })
        let ids = Array(renewing.keys)
        let epochs = ids.map { renewing[$0]! }
        let ttl = leaseSeconds
        // A node with no lease to renew writes nothing, but says it is here
        // every `seenEvery` (a renewal a second from each idle node of a test
        // run's hundreds was load enough to slow PostgreSQL for everyone).
        let now = ContinuousClock.now
        let sayHere = settings.seenWrittenAt.withLock { last in
            guard !ids.isEmpty || last.map({ now - $0 >= Self.seenEvery }) ?? true else { return false }
            last = now
            return true
        }
        guard sayHere else { return settled(active: active, kept: [], renewing: renewing) }
        let kept = try await transaction { connection in
            try await connection.query(
                "UPDATE node SET seen_at = clock_timestamp() WHERE id = \(node.id)", logger: logger)
            guard !ids.isEmpty else { return Set<StationID>() }
            return Set(
                try await connection.query(
                    """
                    UPDATE station_lease AS l SET expires_at = clock_timestamp() + make_interval(secs => \(ttl))
                    FROM unnest(\(ids)::text[], \(epochs)::bigint[]) AS h(station_id, epoch)
                    WHERE l.station_id = h.station_id AND l.epoch = h.epoch AND l.node_id = \(node.id)
                    RETURNING l.station_id
                    """, logger: logger
                ).all { try $0.value("station_id", as: String.self) })
        }
        return settled(active: active, kept: kept, renewing: renewing)
    }

    /// How often a node with nothing to renew says it is here.
    static let seenEvery: Duration = .seconds(10)

    /// The active stations a renewal lost: not renewed under the epoch read
    /// before it, unless this node took the lapsed lease again meanwhile (a
    /// save or a request claimed it under a new epoch, now in the book),
    /// which is still this node's; and active stations this node doesn't
    /// hold (lost to another node, or refused at a save: fenced).
    private func settled(
        active: Set<StationID>, kept: Set<StationID>, renewing: [StationID: Int64]
    ) -> Set<StationID> {
        let lost = active.subtracting(kept).filter { leases.held($0) == renewing[$0] }
        leases.letGo(renewing.filter { lost.contains($0.key) })
        return lost
    }

    public func beginLeasing() { leases.open() }

    public func handOver() async throws {
        leases.close()
        try await releaseLeases(Array(leases.allHeld.keys))
    }

    /// Says this node is here, and where other nodes reach it.
    public func registerNode() async throws {
        guard let node else { return }
        try await query(
            """
            INSERT INTO node (id, address) VALUES (\(node.id), \(node.address))
            ON CONFLICT (id) DO UPDATE SET address = EXCLUDED.address, seen_at = clock_timestamp()
            """)
    }

    /// The fencing check, first in every transaction that saves a station:
    /// the lease row still has this node and the epoch it read the station
    /// under (any other node's claim would have raised the epoch; the row
    /// stays locked until the save commits, so none can claim in between),
    /// or this node takes a lapsed lease nobody else held since. Anything
    /// else is `notOwner`, and nothing is written. A save extends the lease.
    static func fence(
        _ stationID: StationID, node: NodeIdentity?, ttl: Double, book: LeaseBook, _ connection: PostgresConnection,
        logger: Logger
    ) async throws {
        guard let node else { return }
        if let epoch = book.held(stationID) {
            let kept = try await connection.query(
                """
                UPDATE station_lease SET expires_at = clock_timestamp() + make_interval(secs => \(ttl))
                WHERE station_id = \(stationID) AND node_id = \(node.id) AND epoch = \(epoch)
                RETURNING 1 AS kept
                """, logger: logger
            ).first { _ in true } ?? false
            guard kept else {
                // Only this epoch's hold goes: a claim made meanwhile stays.
                book.letGo([stationID: epoch])
                throw StorageError.notOwner(stationID)
            }
            return
        }
        // Not held (it went quiet here, or lapsed): taken again only when no
        // other node held it since this node read it.
        guard book.known(stationID) != nil,
            case .held(_, stale: false) = try await claim(stationID, node: node, ttl: ttl, book: book, connection, logger: logger)
        else {
            book.letGo([stationID])
            throw StorageError.notOwner(stationID)
        }
    }
}
