import WavelengthCore
import WavelengthStore

/// The station runs on another node of the cluster now (it holds the lease).
struct StationElsewhere: Error, CustomStringConvertible {
    var stationID: StationID
    var node: NodeIdentity

    var description: String { "Station \(stationID) runs on node \(node.id) (\(node.address))." }
}
