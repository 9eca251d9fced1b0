import WavelengthCore
import WavelengthWire

/// What a live connection is seated on: the station's hub, on the node that
/// runs it, or the feed from that node on another node of a cluster.
enum LiveStation: Sendable {
    case hub(StationHub)
    case feed(StationFeed)

    func disconnect(_ connection: ConnectionID) async {
        switch self {
        case .hub(let hub): await hub.disconnect(connection)
        case .feed(let feed): await feed.leave(connection)
        }
    }

    /// A fresh snapshot. (A relayed listener's resync is passed on, as
    /// everything it sends but pings.)
    func resync(_ connection: ConnectionID) async {
        if case .hub(let hub) = self { await hub.resync(connection) }
    }
}
