/// A station's join secret: 6 decimal digits, uniformly random.
///
/// The generator is injected so tests can replay codes; the server passes a
/// cryptographically secure one (`SystemRandomNumberGenerator`).
public enum AccessCode {
    public static let length = 6

    /// 10^length, the number of possible codes.
    private static let space: UInt64 = 1_000_000

    public static func generate(using rng: inout some RandomNumberGenerator) -> String {
        // `next(upperBound:)` rejects out-of-range draws instead of taking a
        // remainder, so every code is equally likely (no modulo bias).
        let value = rng.next(upperBound: space)
        let digits = String(value)
        return String(repeating: "0", count: length - digits.count) + digits
    }

    /// Exactly `length` ASCII digits (not other Unicode digits such as "٣").
    public static func isWellFormed(_ code: String) -> Bool {
        code.utf8.count == length && code.utf8.allSatisfy { (0x30...0x39).contains($0) }
    }

    /// Compares in time that doesn't depend on where the strings differ, so
    /// response timing doesn't reveal how many leading digits were right.
    ///
    /// The length isn't secret (it's always `length`), so a length mismatch
    /// returns at once. An empty expected code never matches: a station whose
    /// code was never set can't be joined with an empty guess.
    public static func matches(_ given: String, _ expected: String) -> Bool {
        let given = Array(given.utf8)
        let expected = Array(expected.utf8)
        guard !expected.isEmpty, given.count == expected.count else { return false }
        var difference: UInt8 = 0
        for index in expected.indices {
            difference |= given[index] ^ expected[index]
        }
        return difference == 0
    }
}
