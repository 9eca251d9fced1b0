import Logging
import WavelengthCore
import WavelengthStore
import WavelengthWire

/// Seats a listener on a station's hub, as the node running it does for
/// everyone: its own live sockets, and the listeners other nodes relay to
/// it (`FeedLink`). Access is decided here, after the upgrade, so a
/// refusal reaches the client as a message it can read.
struct ListenerSeating: Sendable {
    let directory: StationDirectory
    let gate: StationGate
    /// Whom a block stands between a listener and: their chat doesn't pass.
    var blocks: (any BlockRepository)?

    /// Who is listening, and from where.
    struct Listener: Sendable {
        var caller: Caller
        /// A signed-out listener's players' shared key (`?listener=`).
        var device: DeviceKey?
        var address: String
        /// The revision the client already has.
        var since: Int64?
    }

    /// Seats `listener` as `connection` (a full station says so; the hub
    /// never counted the listener).
    func seat(_ listener: Listener, on hub: StationHub, as connection: ConnectionID, queue: any ListenerQueue) async throws {
        let caller = listener.caller
        let (role, hosting) = try await gate.seat(caller, on: await hub.record)
        _ = try await directory.ensureCode(hub)
        var seat = Seat(
            personID: caller.personID, name: caller.person?.displayName ?? "A listener", role: role, hosting: hosting,
            handle: caller.person?.handle, device: caller.personID == nil ? listener.device : nil, address: listener.address)
        if let person = caller.personID, let blocks { seat.apart = try await blocks.blockedEitherWay(person) }
        try await hub.connect(connection, queue: queue, since: listener.since, seat: seat)
        if let person = seat.personID, await hub.record.mode == .lobby {
            await directory.enteredLobby(personID: person, name: seat.name, stationID: hub.id)
        }
    }

    /// What a refused listener is told.
    static func refusal(_ error: any Error, logger: Logger) -> (ErrorCode, String) {
        switch error {
        case let error as APIError:
            return (error.code, error.message)
        case let error as HubError:
            let refusal = APIError(error)
            return (refusal.code, refusal.message)
        case is StationElsewhere:
            let moved = APIError.elsewhere("This station moved to another server of this site")
            return (moved.code, moved.message)
        default:
            logger.error("Could not seat a listener: \(error)")
            return (.internal, "The station could not be joined.")
        }
    }
}
