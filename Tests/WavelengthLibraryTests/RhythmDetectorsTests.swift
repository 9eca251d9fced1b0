import CAubio
import Foundation
import Testing
@testable import WavelengthLibrary

/// `RhythmDetectors` runs aubio's tempo and onset detectors from one shared
/// spectrum: fed the same hops as aubio's own `aubio_tempo_do` and
/// `aubio_onset_do`, it must say exactly what they say, hop by hop.
@Suite("Rhythm detectors")
struct RhythmDetectorsTests {
    static let rate: UInt32 = 22_050
    static let hop = 256

    /// Signals that reach every branch: clicks on a beat, a chord with
    /// decaying notes, noise bursts, silence between them (the onset
    /// detector's silence gate and start-of-file delay).
    static let signals: [String: @Sendable (Int) -> Float] = [
        "clicks at 124 BPM": { index in
            let t = Double(index) / Double(rate)
            return fmod(t, 60 / 124) < 0.03 ? Float(0.8 * sin(2 * .pi * 1_000 * t)) : 0
        },
        "a decaying chord every half second": { index in
            let t = Double(index) / Double(rate)
            let envelope = exp(-4 * fmod(t, 0.5))
            return Float(envelope * (0.3 * sin(2 * .pi * 220 * t) + 0.2 * sin(2 * .pi * 277 * t) + 0.1 * sin(2 * .pi * 3_300 * t)))
        },
        "noise bursts with silence between": { index in
            let t = Double(index) / Double(rate)
            guard fmod(t, 2.3) < 1.1 else { return 0 }
            // A hash of the index: the same noise every run.
            var x = UInt64(index) &* 0x9E37_79B9_7F4A_7C15
            x ^= x >> 31
            x &*= 0xBF58_476D_1CE4_E5B9
            x ^= x >> 29
            return Float(Double(x % 2_000) / 1_000 - 1) * Float(0.2 + 0.2 * sin(2 * .pi * 2 * t))
        },
    ]

    @Test(arguments: signals.keys.sorted())
    func sayExactlyWhatAubiosOwnDetectorsSay(name: String) throws {
        let signal = try #require(Self.signals[name])
        let ours = try #require(RhythmDetectors(window: 512, hop: Self.hop, rate: Self.rate))
        let tempo = try #require(new_aubio_tempo("default", 512, uint_t(Self.hop), Self.rate))
        let onset = try #require(new_aubio_onset("default", 512, uint_t(Self.hop), Self.rate))
        let input = try #require(new_fvec(uint_t(Self.hop)))
        let beat = try #require(new_fvec(2))
        let onsetOut = try #require(new_fvec(1))
        defer {
            del_aubio_tempo(tempo)
            del_aubio_onset(onset)
            del_fvec(input)
            del_fvec(beat)
            del_fvec(onsetOut)
        }
        var theirOnsets = 0
        // 40 s: several of the beat tracker's 6 s windows.
        for hopIndex in 0..<(40 * Int(Self.rate) / Self.hop) {
            for sample in 0..<Self.hop { input.pointee.data[sample] = signal(hopIndex * Self.hop + sample) }
            aubio_tempo_do(tempo, input, beat)
            aubio_onset_do(onset, input, onsetOut)
            if fvec_get_sample(onsetOut, 0) != 0 { theirOnsets += 1 }
            ours.detect(input)
            try #require(ours.onsets == theirOnsets, "onsets differ at hop \(hopIndex)")
        }
        #expect(theirOnsets > 10, "the signal has onsets to find")
        #expect(ours.bpm == aubio_tempo_get_bpm(tempo))
        #expect(ours.confidence == aubio_tempo_get_confidence(tempo))
        #expect(ours.bpm > 0)
    }
}
