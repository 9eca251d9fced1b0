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
