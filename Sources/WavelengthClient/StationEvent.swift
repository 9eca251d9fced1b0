import WavelengthWire

/// What a `StationClient` reports as it goes.
public enum StationEvent: Sendable {
    case connected(resumed: Bool)
    case snapshot(ServerMessage.Snapshot)
    case updated(TimelineWindow)
    case listeners(Int)
    case clock(offset: Double, roundTrip: Double, samples: Int)
    case acknowledged(CommandAck)
    case refused(id: String?, code: String, message: String)
    case disconnected(reason: String)
    case reconnecting(attempt: Int, afterMs: Double)
}
