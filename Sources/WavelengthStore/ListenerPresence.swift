import WavelengthCore

/// How many people listen to each station on each node of a cluster, so a
/// station's count is the cluster's total and the node running a station
/// keeps it on the air while other nodes relay it to listeners. Each node
/// reports its own; a report lasts a while unless renewed, so a node that
/// died stops counting by itself. The embedded store has one node: nothing
/// to report, and nobody else's to read.
public protocol ListenerPresence: Sendable {
    /// This node's listeners now, by station (none of its earlier reports
    /// for other stations stand), each kept for `seconds` unless reported again.
    func reportPresence(_ listeners: [StationID: Int], for seconds: Double) async throws
    /// The other nodes' standing reports for `stations`: by station, by node.
    func presence(of stations: Set<StationID>) async throws -> [StationID: [String: Int]]
}
