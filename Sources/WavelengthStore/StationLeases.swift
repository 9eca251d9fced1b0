import WavelengthCore

/// A node of a cluster: its id (new at every start) and the address other
/// nodes reach it at.
public struct NodeIdentity: Sendable, Equatable {
    public var id: String
    public var address: String

    public init(id: String, address: String) {
        self.id = id
        self.address = address
    }
}

/// The answer to "may this node run the station?".
public enum LeaseClaim: Sendable, Equatable {
    /// This node holds the station's lease. `stale`: another node held it
    /// since this one last did, so what this node remembers of the station
    /// is out of date and must be read again.
    case held(epoch: Int64, stale: Bool)
    /// Another node runs it now.
    case elsewhere(NodeIdentity)
}

/// Which node runs each station, when several share one store. A station
/// is run by the node holding its lease: a row with an expiry and an epoch
/// that grows with every new holder. Every save of the station checks the
/// epoch in its own transaction (fencing), so a node that lost the lease
/// (paused, cut off) can't write even once. Quiet stations hold no lease.
/// The embedded store has one node and answers `held` always.
public protocol StationLeases: Sendable {
    /// Takes (or keeps) the station's lease for this node, when it is free,
    /// lapsed or already this node's.
    func claimLease(stationID: StationID) async throws -> LeaseClaim
    /// Lets the lease go (the station went quiet here).
    func releaseLease(stationID: StationID) async throws
    /// Extends the leases of `active` stations this node holds and lets go
    /// of the others it holds; answers the active ones it doesn't hold
    /// (lost to another node, or refused at a save).
    func renewLeases(active: Set<StationID>) async throws -> Set<StationID>
    /// How often the server renews; nil when there is one node (no leases).
    var renewalInterval: Duration? { get }
    /// A graceful stop: lets every lease go, and takes none from now on (a
    /// listener leaving or a save on the way out can't take one back).
    func handOver() async throws
    /// The server (again) takes leases, as it starts.
    func beginLeasing()
}

extension StationLeases {
    public func handOver() async throws { _ = try await renewLeases(active: []) }
    public func beginLeasing() {}
}
