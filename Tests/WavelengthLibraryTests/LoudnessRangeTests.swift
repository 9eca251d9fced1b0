import Foundation
import Testing
@testable import WavelengthLibrary

/// The loudness range computed as FFmpeg's `ebur128` filter computes it,
/// from short-term values every 100 ms.
@Suite("Loudness range")
struct LoudnessRangeTests {
    private func energy(_ loudness: Double) -> Double { pow(10, (loudness + 0.691) / 10) }

    @Test func theSpreadIsFromTheTenthToTheNinetyFifthPercentile() {
        let energies = Array(repeating: energy(-20), count: 50) + Array(repeating: energy(-10), count: 50)
        #expect(abs(LoudnessRange.of(shortTermEnergies: energies.shuffled()) - 10) < 1e-9)
        // A steady level has no range; silence has none either.
        #expect(LoudnessRange.of(shortTermEnergies: Array(repeating: energy(-14), count: 40)) < 1e-9)
        #expect(LoudnessRange.of(shortTermEnergies: Array(repeating: 0, count: 40)) == 0)
    }

    @Test func quietPassagesAreGatedOut() {
        // Below -70 LUFS, and more than 20 LU under the mean: neither counts.
        let energies = Array(repeating: energy(-12), count: 60) + Array(repeating: energy(-80), count: 30)
            + Array(repeating: energy(-40), count: 30)
        #expect(LoudnessRange.of(shortTermEnergies: energies) < 1e-9)
    }

    @Test func shortTermValuesBeginOnceThreeSecondsAreIn() {
        var shortTerm = LoudnessRange.ShortTerm()
        for block in 0..<29 { shortTerm.add(blockEnergy: Double(block)) }
        #expect(shortTerm.energies.isEmpty)
        shortTerm.add(blockEnergy: 29)
        shortTerm.add(blockEnergy: 30)
        // The mean of blocks 0…29, then of 1…30.
        #expect(shortTerm.energies == [14.5, 15.5])
    }
}
