import WavelengthCore
import WavelengthStore

/// The embedded store serves one node, which runs every station.
extension AppDatabase: StationLeases {
    public func claimLease(stationID: StationID) async throws -> LeaseClaim { .held(epoch: 0, stale: false) }
    public func releaseLease(stationID: StationID) async throws {}
    public func renewLeases(active: Set<StationID>) async throws -> Set<StationID> { [] }
    public var renewalInterval: Duration? { nil }
}
