import WavelengthCore
import WavelengthStore

/// The embedded store serves one node: there is no other node to tell, and
/// nothing ever arrives (the server doesn't follow signals without leases).
extension AppDatabase: ClusterSignals {
    public var signalsNodeID: String { "" }
    public func publish(_ signal: ClusterSignal) async throws {}
    public func signals(after sequence: Int64, limit: Int) async throws -> [ClusterSignal] { [] }
    public func pruneSignals(olderThan seconds: Double) async throws {}
    public func listenForSignals(_ heard: @escaping @Sendable (SignalWakeUp) -> Void) async {}
}
