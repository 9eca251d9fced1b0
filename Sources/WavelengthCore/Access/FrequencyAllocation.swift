/// Which frequency a station gets, as one rule every store follows; the
/// store only answers the questions (`FrequencyLedger`) inside the
/// transaction that saves the station, so two stations never get the same
/// code.
///
/// A code is taken while its station holds it and it has not expired (an
/// expired code is free again, and its station lets go of it when another
/// takes it). Codes are drawn at random from the band's tiers. When the
/// draw finds none free, the station that has been quiet longest gives its
/// code back; it gets a fresh one when it next goes on the air. A
/// code-protected station is passed over until it has been quiet for
/// `FrequencyDial.codeProtectedHold`, since its guests were told that code.
/// Only when no quiet station can give one back is every code looked at
/// before the band is called full.
public enum FrequencyAllocation {
    public struct Allocation: Sendable, Equatable {
        public var frequency: String
        /// The station that let go of the code, if one held it.
        public var reclaimedFrom: StationID?

        public init(frequency: String, reclaimedFrom: StationID?) {
            self.frequency = frequency
            self.reclaimedFrom = reclaimedFrom
        }
    }

    public struct BandFull: Error, Equatable {}

    public static func allocate(
        in ledger: inout some FrequencyLedger, now: EpochMillis, band: FrequencyBand,
        using rng: inout some RandomNumberGenerator
    ) throws -> Allocation {
        let takenAmong = { (codes: [String]) throws -> Set<String> in try ledger.held(among: codes, at: now) }
        if let code = try band.pick(using: &rng, takenAmong: takenAmong) {
            return try take(code, in: &ledger)
        }
        if let (station, code) = try ledger.quietestHolder(
            quietBefore: now, codeProtectedQuietBefore: now - FrequencyDial.codeProtectedHold)
        {
            try ledger.release(stationID: station)
            return Allocation(frequency: code, reclaimedFrom: station)
        }
        guard let code = try band.firstFree(takenAmong: takenAmong) else { throw BandFull() }
        return try take(code, in: &ledger)
    }

    /// A free code; a station still marked with it (its code expired) lets go of it now.
    private static func take(_ code: String, in ledger: inout some FrequencyLedger) throws -> Allocation {
        let holder = try ledger.holder(of: code)
        if let holder { try ledger.release(stationID: holder) }
        return Allocation(frequency: code, reclaimedFrom: holder)
    }
}

/// What `FrequencyAllocation` asks of a store, inside one transaction.
public protocol FrequencyLedger {
    /// Which of `codes` a station holds and has not expired at `now`.
    func held(among codes: [String], at now: EpochMillis) throws -> Set<String>
    /// The station marked with `code`, expired or not.
    func holder(of code: String) throws -> StationID?
    /// The station with a code that has been quiet longest: quiet since
    /// `quietBefore` or earlier, and, when it is code-protected, since
    /// `codeProtectedQuietBefore` or earlier. On-air stations never qualify.
    func quietestHolder(quietBefore: EpochMillis, codeProtectedQuietBefore: EpochMillis) throws
        -> (StationID, String)?
    /// Takes the station's code away.
    mutating func release(stationID: StationID) throws
}

/// The randomness a frequency is drawn with: the system's, or a seed (each
/// draw then starts from the seed, so a test sees the same codes again).
public enum FrequencyDraw: Sendable, Equatable {
    case system
    case seeded(UInt64)

    /// Draws with a fresh generator of this kind.
    public func draw<T>(_ body: (inout any RandomNumberGenerator) throws -> T) rethrows -> T {
        var rng: any RandomNumberGenerator
        switch self {
        case .system: rng = SystemRandomNumberGenerator()
        case .seeded(let seed): rng = SeededRandom(seed: seed)
        }
        return try body(&rng)
    }
}

/// A ledger over the stations that hold a code, read in one go: for a
/// store that can't answer the questions one by one inside its transaction
/// (a network database, or memory). The stations holding a code are at most
/// as many as the band has codes. `released` says whose codes to take away
/// when the allocation is saved.
public struct FrequencyHolders: FrequencyLedger, Sendable {
    public struct Holder: Sendable, Equatable {
        public var stationID: StationID
        public var frequency: String
        public var codeExpiresAt: EpochMillis?
        public var quietSince: EpochMillis?
        public var codeProtected: Bool

        public init(
            stationID: StationID, frequency: String, codeExpiresAt: EpochMillis?, quietSince: EpochMillis?,
            codeProtected: Bool
        ) {
            self.stationID = stationID
            self.frequency = frequency
            self.codeExpiresAt = codeExpiresAt
            self.quietSince = quietSince
            self.codeProtected = codeProtected
        }
    }

    private var holders: [String: Holder]
    public private(set) var released: [StationID] = []

    public init(_ holders: [Holder]) {
        self.holders = Dictionary(holders.map { ($0.frequency, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public func held(among codes: [String], at now: EpochMillis) -> Set<String> {
        Set(codes.filter { code in holders[code].map { $0.codeExpiresAt.map { $0 > now } ?? true } ?? false })
    }

    public func holder(of code: String) -> StationID? {
        holders[code]?.stationID
    }

    public func quietestHolder(quietBefore: EpochMillis, codeProtectedQuietBefore: EpochMillis) -> (StationID, String)? {
        let candidates = holders.values.filter { holder in
            guard let quiet = holder.quietSince, quiet <= quietBefore else { return false }
            return !holder.codeProtected || quiet <= codeProtectedQuietBefore
        }
        guard let oldest = candidates.min(by: { ($0.quietSince!, $0.stationID) < ($1.quietSince!, $1.stationID) }) else {
            return nil
        }
        return (oldest.stationID, oldest.frequency)
    }

    public mutating func release(stationID: StationID) {
        for (code, holder) in holders where holder.stationID == stationID { holders[code] = nil }
        released.append(stationID)
    }
}
