import Testing
@testable import WavelengthCore

@Suite("Access code")
struct AccessCodeTests {
    @Test func codesAreSixAsciiDigits() {
        var rng = SeededRandom(seed: 7)
        for _ in 0..<1_000 {
            let code = AccessCode.generate(using: &rng)
            #expect(code.count == AccessCode.length)
            #expect(code.utf8.allSatisfy { (0x30...0x39).contains($0) })
            #expect(AccessCode.isWellFormed(code))
        }
    }

    @Test func theSameSeedGivesTheSameCodes() {
        var a = SeededRandom(seed: 11)
        var b = SeededRandom(seed: 11)
        let first = (0..<20).map { _ in AccessCode.generate(using: &a) }
        let second = (0..<20).map { _ in AccessCode.generate(using: &b) }
        #expect(first == second)
    }

    @Test func everyDigitAppearsInEveryPosition() {
        var rng = SeededRandom(seed: 42)
        var counts = Array(repeating: Array(repeating: 0, count: 10), count: AccessCode.length)
        let total = 10_000
        for _ in 0..<total {
            for (position, byte) in AccessCode.generate(using: &rng).utf8.enumerated() {
                counts[position][Int(byte - 0x30)] += 1
            }
        }
        for position in counts {
            for count in position {
                // Expect ~1,000 each; ±20% is over 6 standard deviations.
                #expect((800...1_200).contains(count))
            }
        }
        // Zeros in the first position also show that small values keep their
        // leading zeros. (A constant generator can't test that: rejection
        // sampling would redraw forever.)
        #expect(counts[0][0] > 0)
    }

    @Test func wellFormedMeansExactlySixAsciiDigits() {
        #expect(AccessCode.isWellFormed("012345"))
        #expect(!AccessCode.isWellFormed("12345"))
        #expect(!AccessCode.isWellFormed("1234567"))
        #expect(!AccessCode.isWellFormed("12345a"))
        #expect(!AccessCode.isWellFormed("12 345"))
        #expect(!AccessCode.isWellFormed(""))
        #expect(!AccessCode.isWellFormed("١٢٣٤٥٦"))  // Arabic-Indic digits
        #expect(!AccessCode.isWellFormed("１２３４５６"))  // fullwidth digits
    }

    @Test func matching() {
        #expect(AccessCode.matches("123456", "123456"))
        #expect(!AccessCode.matches("123457", "123456"))
        #expect(!AccessCode.matches("023456", "123456"))
        #expect(!AccessCode.matches("12345", "123456"))
        #expect(!AccessCode.matches("1234567", "123456"))
        #expect(!AccessCode.matches("", "123456"))
        #expect(!AccessCode.matches("", ""))
    }
}
