import Testing
@testable import WavelengthCore

/// The gain that brings every track to one loudness without clipping.
@Suite("Loudness gain")
struct LoudnessGainTests {
    @Test func quietTracksGoUpAndLoudOnesDownToTheTarget() {
        #expect(Loudness.gainDb(integrated: -20, truePeak: -10) == 6)
        #expect(Loudness.gainDb(integrated: -8, truePeak: -0.5) == -6)
        #expect(Loudness.gainDb(integrated: -23, truePeak: -12, target: -16) == 7)
    }

    @Test func aBoostNeverPushesThePeakPastMinusOne() {
        // 8 dB would reach the target, but the peak at -3 dBTP allows 2.
        #expect(Loudness.gainDb(integrated: -22, truePeak: -3) == 2)
    }

    @Test func theGainIsBoundedAndUnmeasuredTracksPlayAsTheyAre() {
        #expect(Loudness.gainDb(integrated: -60, truePeak: -40) == Loudness.boostLimit)
        #expect(Loudness.gainDb(integrated: 20, truePeak: 0) == Loudness.cutLimit)
        #expect(Loudness.gainDb(integrated: nil, truePeak: nil) == 0)
        #expect(abs(Loudness.factor(db: -6) - 0.501) < 0.001)
        #expect(Loudness.factor(db: 0) == 1)
    }
}
