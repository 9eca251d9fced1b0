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

    @Test func aStationsTargetAndLevelMoveTheGainButNeverPastTheHeadroom() {
        // A track at -20 LUFS, peak -10 dBTP: +6 dB at -14, headroom 9 dB.
        let gain = Loudness.gainDb(integrated: -20, truePeak: -10)
        let headroom = Loudness.headroomDb(truePeak: -10)
        #expect(headroom == 9)
        #expect(Loudness.playbackGain(trackGain: gain, headroom: headroom, offset: 0) == 6)
        // A quieter station (-23 LUFS) and a room that turned it down 3 dB.
        #expect(Loudness.playbackGain(trackGain: gain, headroom: headroom, offset: -9 - 3) == -6)
        // A louder one stops where the peak would pass -1 dBTP.
        #expect(Loudness.playbackGain(trackGain: gain, headroom: headroom, offset: 5) == 9)
    }

    @Test func anUnmeasuredTrackIsTurnedDownButNeverBoosted() {
        #expect(Loudness.playbackGain(trackGain: nil, headroom: nil, offset: 6) == 0)
        #expect(Loudness.playbackGain(trackGain: nil, headroom: nil, offset: -6) == -6)
        #expect(Loudness.headroomDb(truePeak: nil) == nil)
    }
}
