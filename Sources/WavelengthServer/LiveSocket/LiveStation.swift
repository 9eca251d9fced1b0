import WavelengthCore
import WavelengthWire

/// What a live connection is seated on: the station's hub, on the node that
/// runs it, or a relay of it on another node of a cluster (listening only).
enum LiveStation: Sendable {
    case hub(StationHub)
    case relay(StationRelay)

    func disconnect(_ connection: ConnectionID) async {
        switch self {
        case .hub(let hub): await hub.disconnect(connection)
        case .relay(let relay): await relay.disconnect(connection)
        }
    }

    func resync(_ connection: ConnectionID) async {
        switch self {
        case .hub(let hub): await hub.resync(connection)
        case .relay(let relay): await relay.resync(connection)
        }
    }

    /// The hub, for what only the node running the station does (chat,
    /// reactions, commands); nil on a relay.
    var hub: StationHub? {
        if case .hub(let hub) = self { return hub }
        return nil
    }

    /// What a relayed listener is told when it sends more than pings.
    static let relayedOnly =
        "This server relays the station for listening; it runs on another server of this site. Reconnect to chat, react or send commands."
}
