import Testing
@testable import WavelengthCore

/// Vote weights in a lobby: never 0, bounded, moved by evidence only.
struct CredibilityTests {
    func weight(up: Int = 0, down: Int = 0, skips: Int = 0) -> Double {
        Credibility(thumbsUp: up, thumbsDown: down, skips: skips).weight
    }

    @Test func noEvidenceCountsOnce() {
        #expect(weight() == 1)
        #expect(Credibility().explanation.contains("1×"))
    }

    @Test func weightGrowsWithEvidenceNotWithOneReaction() {
        #expect(weight(up: 1) > 1)
        #expect(weight(up: 1) < 1.3)
        #expect(weight(up: 10) > 2)
        #expect(weight(down: 10) < 0.5)
        // Mixed reception stays near 1.
        #expect(abs(weight(up: 20, down: 20) - 1) < 0.001)
    }

    @Test func weightIsNeverZeroAndNeverUnbounded() {
        let worst = weight(down: 10_000, skips: 10_000)
        #expect(worst >= Credibility.range.lowerBound)
        #expect(worst < Credibility.range.lowerBound + 0.01)
        #expect(weight(up: 1_000_000) <= Credibility.range.upperBound)
        #expect(weight(up: 1_000_000) > Credibility.range.upperBound - 0.01)
    }

    @Test func aSkipWeighsLikeTwoThumbsDown() {
        #expect(weight(skips: 3) == weight(down: 6))
    }

    @Test func recordingReactionsMovesTheWeightAndTheExplanationSaysWhy() {
        var credibility = Credibility()
        credibility.record(.thumbUp)
        credibility.record(.thumbUp)
        credibility.record(.skipped)
        #expect(credibility.thumbsUp == 2)
        #expect(credibility.skips == 1)
        #expect(credibility.explanation.contains("2 👍"))
        #expect(credibility.explanation.contains("1 skipped"))
    }
}
