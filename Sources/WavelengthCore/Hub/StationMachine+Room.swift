extension StationMachine {
    /// A room calibration's message from one listener, checked and passed
    /// on to everyone else listening (with the sender's name). Anyone
    /// listening may calibrate the room, within a per-listener limit; the
    /// station keeps nothing of it.
    public mutating func roomSignal(_ signal: RoomSignal, from id: ConnectionID, at now: EpochMillis)
        throws(HubError) -> [HubAction]
    {
        guard let connection = connections.first(where: { $0.id == id }), !connection.closing else {
            throw .forbidden(.vote)
        }
        var passed: RoomSignal
        do {
            passed = try signal.checked(at: now)
            try roomSignals.take(by: connection.seat.limitKey(on: id), at: now)
        } catch {
            throw .room(error)
        }
        passed.from = connection.seat.name
        passed.sender = "c\(id.value)"
        return [.broadcast(.room(passed), except: id)]
    }
}
