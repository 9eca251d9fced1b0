import WavelengthCore

/// Listeners other nodes relay the station to (see `StationRelay`), as the
/// node running it knows them: reported through `ListenerPresence`.
extension StationHub {
    /// The listeners each other node relays the station to now (nodes not
    /// named have none). Each such node holds a seat that keeps the station
    /// on the air, as the stream's encoder does, and counts nobody; its
    /// listeners are counted one by one in the station's audience, so the
    /// count everyone sees is the cluster's.
    func relayedAudience(_ byNode: [String: Int]) async {
        for node in byNode.keys.sorted() where relaySeats[node] == nil {
            let seat = ConnectionIDs.next()
            relaySeats[node] = seat
            do {
                try await connect(
                    seat, queue: DiscardingQueue(), since: nil,
                    seat: Seat(personID: nil, name: "Listeners on another server", role: .listener, audience: nil))
            } catch {
                relaySeats[node] = nil
                context.logger.warning("Station \(id) could not seat node \(node)'s relay: \(error)")
            }
        }
        // Seats go after new ones are taken: listeners moving from one
        // relaying node to another never leave the station unheard.
        for (node, seat) in relaySeats where byNode[node] == nil {
            relaySeats[node] = nil
            await disconnect(seat)
        }
        for node in Set(relayedListeners.keys).union(byNode.keys) {
            let (before, after) = (relayedListeners[node] ?? 0, max(0, min(byNode[node] ?? 0, Self.maxRelayedPerNode)))
            relayedListeners[node] = after == 0 ? nil : after
            for index in stride(from: before, to: after, by: 1) {
                await streamAudience(.arrived(.relayed(node: node, index: index), .app))
            }
            for index in stride(from: before - 1, through: after, by: -1) {
                await streamAudience(.left(.relayed(node: node, index: index), .app))
            }
        }
    }

    /// The people listening on this node (the audience less other nodes').
    var localListeners: Int {
        audience.listeners - relayedListeners.values.reduce(0, +)
    }

    /// A node reports at most this many (a report is read from storage, and
    /// each listener is a member of the audience here).
    static let maxRelayedPerNode = 200_000
}

/// A relay seat's queue: the relaying node reads the station from storage,
/// so what the hub sends this seat goes nowhere.
struct DiscardingQueue: ListenerQueue {
    func offer(_ outgoing: LiveOutgoing) -> Bool { true }
    func finish() {}
    var compactUpdates: Bool { true }
}
