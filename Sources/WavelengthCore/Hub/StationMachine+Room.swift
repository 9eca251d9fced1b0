/// Room calibration signals: checked, limited per person (signed out: per
/// address), named by the server, and passed only between the call's
/// devices (`RoomCalls`).
extension StationMachine {
    public mutating func roomSignal(
        _ signal: RoomSignal, from id: ConnectionID, at now: EpochMillis, using rng: inout some RandomNumberGenerator
    ) throws(HubError) -> [HubAction] {
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
        roomCalls.expire(at: now)
        switch passed.kind {
        case .call: return try openCall(passed, by: connection, at: now, using: &rng)
        case .join: return try joinCall(passed, from: connection)
        case .plan, .result, .cancel: return try fromCaller(passed, id)
        }
    }

    /// The meter calls: it gets the call back with its code, and only its
    /// person's other devices are asked to take part. One call per person
    /// (signed out: per address); a new one ends the last.
    private mutating func openCall(
        _ signal: RoomSignal, by connection: Connection, at now: EpochMillis, using rng: inout some RandomNumberGenerator
    ) throws(HubError) -> [HubAction] {
        let key = connection.seat.limitKey(on: connection.id)
        if let taken = roomCalls.call(session: signal.session), taken.caller != connection.id {
            throw .room(.refused("That calibration is another device's: start one of your own."))
        }
        var actions: [HubAction] = []
        for previous in [roomCalls.call(byKey: key), roomCalls.call(by: connection.id)].compactMap({ $0 }) {
            if roomCalls.end(previous.session) != nil { actions += callEnded(previous) }
        }
        var echo = signal
        echo.code = roomCalls.freshCode(using: &rng)
        roomCalls.open(
            RoomCalls.Call(
                session: signal.session, caller: connection.id, personID: connection.seat.personID,
                callerName: connection.seat.name, callerKey: key, code: echo.code!, startedAt: now))
        actions.append(.send(connection.id, .room(echo)))
        for other in invited(by: connection.seat.personID, except: connection.id) {
            actions.append(.send(other, .room(signal)))
        }
        return actions
    }

    /// A device joins: one of the caller's own (invited), or any listener
    /// with the call's code. Only the caller hears of it; the device is told
    /// whose call it joined, so it takes the plan and figures only from there.
    private mutating func joinCall(_ signal: RoomSignal, from connection: Connection) throws(HubError) -> [HubAction] {
        let call: RoomCalls.Call
        if let code = signal.code {
            guard let found = roomCalls.call(code: code) else {
                throw .room(.refused("No calibration here has that code: check the code on the measuring phone."))
            }
            call = found
        } else {
            guard let found = roomCalls.call(session: signal.session), let person = connection.seat.personID,
                found.personID == person
            else { throw .room(.refused("Join this calibration with the code its phone shows.")) }
            call = found
        }
        guard call.caller != connection.id else { throw .room(.refused("This device is the measuring phone.")) }
        guard call.members.contains(connection.id) || call.members.count < RoomSignal.maxDevices else {
            throw .room(.refused("This calibration already has \(RoomSignal.maxDevices) devices."))
        }
        roomCalls.admit(connection.id, to: call.session)
        var join = signal
        join.session = call.session
        join.code = nil
        let joined = RoomSignal(
            kind: .call, session: call.session, from: call.callerName, sender: "c\(call.caller.value)", code: signal.code)
        return [.send(call.caller, .room(join)), .send(connection.id, .room(joined))]
    }

    /// A plan, figures or a stop: only from the caller, only to its devices.
    /// Figures and a stop end the call.
    private mutating func fromCaller(_ signal: RoomSignal, _ id: ConnectionID) throws(HubError) -> [HubAction] {
        guard let call = roomCalls.call(session: signal.session), call.caller == id else {
            throw .room(.refused("Only the phone that called sends a plan, figures or a stop."))
        }
        switch signal.kind {
        case .plan:
            return call.members.sorted().map { .send($0, .room(signal)) }
        case .result:
            roomCalls.end(call.session)
            return call.members.sorted().map { .send($0, .room(signal)) }
        default:
            roomCalls.end(call.session)
            return callEnded(call)
        }
    }

    /// A call ended before its figures: its devices, and the caller's own
    /// still asked, stop waiting.
    func callEnded(_ call: RoomCalls.Call) -> [HubAction] {
        let cancel = RoomSignal(kind: .cancel, session: call.session, from: call.callerName, sender: "c\(call.caller.value)")
        let told = call.members.union(invited(by: call.personID, except: call.caller))
        return told.sorted().filter { id in connections.contains { $0.id == id } }.map { .send($0, .room(cancel)) }
    }

    /// The person's other connections here (none for the signed out).
    private func invited(by personID: String?, except caller: ConnectionID) -> [ConnectionID] {
        guard let personID else { return [] }
        return connections.filter { $0.id != caller && !$0.closing && $0.seat.personID == personID }.map(\.id)
    }
}
