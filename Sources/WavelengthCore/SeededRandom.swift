/// A small, fast, seedable generator (SplitMix64) so tests and simulations
/// can replay the robot DJ's choices exactly.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Entry ids come from the injected generator, so a seeded run is repeatable.
public enum EntryIDs {
    public static func make(using rng: inout some RandomNumberGenerator) -> EntryID {
        let value = rng.next()
        let hex = String(value, radix: 16)
        return "e" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}
