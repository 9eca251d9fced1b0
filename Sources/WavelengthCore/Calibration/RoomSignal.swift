/// One message of a room calibration, passed between the devices in one
/// room. The *meter* (a phone with a microphone) calls the room, gives each
/// device that answers a slot on the shared clock, records every chirp
/// itself, and sends back only the figures: the recording never leaves it.
/// The server checks each message's shape and size and passes it only
/// between the call's devices (`RoomCalls`): the caller's own, and those
/// that joined with the code the meter shows. It measures nothing and
/// keeps no figure, so a measurement can never be worse than the devices' own.
public struct RoomSignal: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable {
        /// The meter asks the room's devices to take part.
        case call
        /// A device answers a call.
        case join
        /// The meter's slots: when each device plays its chirps.
        case plan
        /// The meter's figures: each device's extra output delay, or why not.
        case result
        /// The meter stopped (or left): devices stop waiting for their slot.
        case cancel
    }

    /// One device's turn: it plays its chirps from `at` (server clock, ms).
    public struct Slot: Sendable, Equatable, Codable {
        public var device: String
        public var at: EpochMillis

        public init(device: String, at: EpochMillis) {
            self.device = device
            self.at = at
        }
    }

    /// What the meter heard of one device: its delay behind the meter's own
    /// sound (ms), or the reason there is none; with the name the device
    /// gave, so everyone listening (the DJ's booth too) can tell them apart.
    public struct Result: Sendable, Equatable, Codable {
        public var device: String
        public var name: String?
        public var delayMs: Double?
        public var problem: String?

        public init(device: String, name: String? = nil, delayMs: Double? = nil, problem: String? = nil) {
            self.device = device
            self.name = name
            self.delayMs = delayMs
            self.problem = problem
        }
    }

    public var kind: Kind
    /// The meter's id for this calibration.
    public var session: String
    /// The device a `join` comes from (its own random key, kept per browser).
    public var device: String?
    /// The device's name as its owner sees it ("Kitchen speaker").
    public var name: String?
    public var slots: [Slot]?
    public var results: [Result]?
    /// Set by the server from the sender's seat, never by the sender.
    public var from: String?
    /// Set by the server: the connection that sent it. A device takes a
    /// calibration's plan, figures and cancel only from the connection that
    /// sent its call, so another listener who read the session and a
    /// device's id from the room can't forge a figure for it.
    public var sender: String?
    /// The call's code: set by the server on the call it sends back to the
    /// meter (which shows it), and on the call a device joined with it; a
    /// device nearby sends it in its `join` (its `session` is then ignored).
    public var code: String?

    public init(
        kind: Kind, session: String, device: String? = nil, name: String? = nil, slots: [Slot]? = nil,
        results: [Result]? = nil, from: String? = nil, sender: String? = nil, code: String? = nil
    ) {
        self.sender = sender
        self.code = code
        self.kind = kind
        self.session = session
        self.device = device
        self.name = name
        self.slots = slots
        self.results = results
        self.from = from
    }

    /// At most this many devices take part in one calibration.
    public static let maxDevices = 12
    public static let maxNameLength = 40
    public static let maxProblemLength = 160
    /// A slot lies at most this far from the server's now (ms): a plan is
    /// for the next minute, not for a day's time.
    public static let slotHorizonMillis: EpochMillis = 120_000
    /// The figure a result may carry (ms): anything past it is no delay a
    /// sound path has, and the meter refuses it before it is sent.
    public static let maxDelayMillis: Double = 2_000

    /// The signal as it may be passed on, or why it may not: ids are short
    /// and plain, names and problems short and free of control characters,
    /// lists bounded, times near `now` and figures finite. `from` and
    /// `sender` are dropped (the server sets them).
    public func checked(at now: EpochMillis) throws(RoomSignalError) -> RoomSignal {
        var signal = self
        signal.from = nil
        signal.sender = nil
        if let code {
            guard kind == .join else { throw .invalid("Only a join carries a code.") }
            guard code.utf8.count == RoomCalls.codeDigits, code.utf8.allSatisfy({ (48...57).contains($0) }) else {
                throw .invalid("A calibration's code is \(RoomCalls.codeDigits) digits.")
            }
        }
        guard Self.isKey(session, maxLength: 32) else { throw .invalid("A calibration's session id is 1–32 letters, digits or dashes.") }
        if let device, !Self.isKey(device, maxLength: 64) {
            throw .invalid("A device id is 1–64 letters, digits or dashes.")
        }
        if let name {
            signal.name = try Self.text(name, limit: Self.maxNameLength, what: "A device's name")
        }
        switch kind {
        case .join:
            guard device != nil else { throw .invalid("A join names its device.") }
        case .plan:
            guard let slots, !slots.isEmpty, slots.count <= Self.maxDevices + 1 else {
                throw .invalid("A plan has 1–\(Self.maxDevices + 1) slots.")
            }
            for slot in slots {
                guard Self.isKey(slot.device, maxLength: 64) else { throw .invalid("A slot's device id is 1–64 letters, digits or dashes.") }
                guard abs(slot.at - now) <= Self.slotHorizonMillis else {
                    throw .invalid("A slot must be within \(Self.slotHorizonMillis / 1000) s of now.")
                }
            }
        case .result:
            guard let results, !results.isEmpty, results.count <= Self.maxDevices else {
                throw .invalid("A result has 1–\(Self.maxDevices) devices.")
            }
            signal.results = try results.map { result throws(RoomSignalError) in
                guard Self.isKey(result.device, maxLength: 64) else { throw .invalid("A result's device id is 1–64 letters, digits or dashes.") }
                var result = result
                if let delay = result.delayMs {
                    guard delay.isFinite, abs(delay) <= Self.maxDelayMillis else {
                        throw .invalid("A delay is a number of ms within ±\(Int(Self.maxDelayMillis)).")
                    }
                }
                if let problem = result.problem {
                    result.problem = try Self.text(problem, limit: Self.maxProblemLength, what: "A problem")
                }
                if let name = result.name {
                    result.name = try Self.text(name, limit: Self.maxNameLength, what: "A device's name")
                }
                guard (result.delayMs == nil) != (result.problem == nil) else {
                    throw .invalid("A result carries either a delay or a problem.")
                }
                return result
            }
        case .call, .cancel:
            break
        }
        if kind != .plan, slots != nil { throw .invalid("Only a plan carries slots.") }
        if kind != .result, results != nil { throw .invalid("Only a result carries results.") }
        return signal
    }

    private static func isKey(_ value: String, maxLength: Int) -> Bool {
        !value.isEmpty && value.utf8.count <= maxLength
            && value.utf8.allSatisfy { $0 == UInt8(ascii: "-") || (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) }
    }

    private static func text(_ value: String, limit: Int, what: String) throws(RoomSignalError) -> String {
        let trimmed = value.trimmingWhitespace
        guard trimmed.count <= limit else { throw .invalid("\(what) is at most \(limit) characters.") }
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format })
        else { throw .invalid("\(what) has no control characters.") }
        return trimmed
    }
}

public enum RoomSignalError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalid(String)
    /// Well formed, but not this sender's to send: a wrong code, a call
    /// that is another's, a plan from a device that didn't call.
    case refused(String)
    /// More than `RoomSignalLimit.limit` signals in its window from one listener.
    case tooFast(retryAt: EpochMillis)

    public var description: String {
        switch self {
        case .invalid(let message), .refused(let message): message
        case .tooFast: "Too many calibration messages: at most \(RoomSignalLimit.limit) in \(RoomSignalLimit.windowMillis / 1000) s."
        }
    }
}

/// A listener (signed out: an address) may send this many room signals in
/// a window: a whole calibration of twelve devices takes one call, one
/// plan, one result and a join each, so the limit only stops a flood, and a
/// code guessed at this pace is found long after its call has ended.
public struct RoomSignalLimit: Sendable, Equatable {
    public static let limit = 20
    public static let windowMillis: EpochMillis = 10_000
    private var sent: [String: [EpochMillis]] = [:]

    public init() {}

    public mutating func take(by key: String, at now: EpochMillis) throws(RoomSignalError) {
        let recent = (sent[key] ?? []).filter { $0 > now - Self.windowMillis }
        guard recent.count < Self.limit else { throw .tooFast(retryAt: recent[0] + Self.windowMillis) }
        sent[key] = recent + [now]
        if sent.count > 512 { sent = sent.filter { ($0.value.last ?? 0) > now - Self.windowMillis } }
    }
}
