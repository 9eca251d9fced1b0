/// Who takes part in each room calibration on a station, so its signals go
/// only between them, never to the whole audience: the connection that
/// called (the meter); the caller's own devices, signed in as the same
/// person, which are invited; and the devices that joined, invited or with
/// the call's code, which only the meter is told and shows on its screen.
///
/// Pure state: the machine asks it who may send what and where each signal
/// goes, and performs nothing itself.
public struct RoomCalls: Sendable, Equatable {
    public struct Call: Sendable, Equatable {
        public var session: String
        public var caller: ConnectionID
        /// The caller's person: their other devices are invited.
        public var personID: String?
        public var callerName: String
        /// Who the caller counts as for limits (`Seat.limitKey`): one call each.
        public var callerKey: String
        /// Six digits the meter shows; a device nearby types them to join.
        public var code: String
        public var members: Set<ConnectionID> = []
        public var startedAt: EpochMillis
    }

    /// A call lasts this long at most: long enough to walk to the other
    /// devices and type the code, short enough that a code stops working.
    public static let lifetimeMillis: EpochMillis = 5 * 60_000
    public static let codeDigits = 6

    public private(set) var calls: [String: Call] = [:]

    public init() {}

    /// Drops calls older than their lifetime.
    public mutating func expire(at now: EpochMillis) {
        calls = calls.filter { now - $0.value.startedAt < Self.lifetimeMillis }
    }

    public func call(session: String) -> Call? { calls[session] }

    public func call(code: String) -> Call? { calls.values.first { $0.code == code } }

    /// The call `connection` made, if any.
    public func call(by connection: ConnectionID) -> Call? { calls.values.first { $0.caller == connection } }

    /// The call this caller key already has (one each: a new one replaces it).
    public func call(byKey key: String) -> Call? { calls.values.first { $0.callerKey == key } }

    /// A fresh code no open call uses, drawn from `rng`.
    public func freshCode(using rng: inout some RandomNumberGenerator) -> String {
        while true {
            let number = Int.random(in: 0..<1_000_000, using: &rng)
            let code = String(number).leftPadded(to: Self.codeDigits)
            if call(code: code) == nil { return code }
        }
    }

    public mutating func open(_ call: Call) { calls[call.session] = call }

    @discardableResult
    public mutating func end(_ session: String) -> Call? { calls.removeValue(forKey: session) }

    public mutating func admit(_ connection: ConnectionID, to session: String) {
        calls[session]?.members.insert(connection)
    }

    /// A connection left: the calls it made end (returned, for their members
    /// to be told), and it leaves the calls it had joined.
    public mutating func left(_ connection: ConnectionID) -> [Call] {
        let made = calls.values.filter { $0.caller == connection }
        for call in made { calls[call.session] = nil }
        for session in calls.keys { calls[session]?.members.remove(connection) }
        return made
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
