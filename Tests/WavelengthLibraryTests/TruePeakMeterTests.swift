import CEbur128
import Foundation
import Testing
@testable import WavelengthLibrary

/// `TruePeakMeter` runs libebur128's own interpolator faster: fed the same
/// samples in uneven pieces, it must read libebur128's true peak.
@Suite("True peak")
struct TruePeakMeterTests {
    @Test func theFilterIsLibebur128sSplitIntoPhases() {
        let four = TruePeakMeter.Filter.oversampling(4)
        #expect(four.phases == 3 && four.taps == 12 && four.coefficients.count == 36)
        // The half-way phase is symmetric, and every phase passes DC at unity.
        let half = Array(four.coefficients[12..<24])
        #expect(zip(half, half.reversed()).allSatisfy { abs($0 - $1) < 1e-7 })
        for phase in 0..<3 {
            let gain = four.coefficients[(phase * 12)..<(phase * 12 + 12)].reduce(0, +)
            #expect(abs(gain - 1) < 0.02, "phase \(phase + 1) passes \(gain)")
        }
        #expect(TruePeakMeter.Filter.oversampling(2).phases == 1)
        #expect(TruePeakMeter.Filter.oversampling(2).taps == 24)
        #expect(TruePeakMeter.Filter.oversampling(1).phases == 0)
    }

    /// Signals whose peaks fall between samples, and ones whose don't.
    static let signals: [(name: String, rate: Int, channels: Int, sample: @Sendable (Int, Int) -> Float)] = [
        // A quarter of the rate, 45° off: every sample is at 0.707 of the peak (+3 dB between).
        ("a sine at fs/4 between its samples", 44_100, 2, { index, channel in
            Float(0.5 * sin(Double.pi / 2 * Double(index) + .pi / 4 + Double(channel)))
        }),
        ("a clipped chord", 48_000, 2, { index, channel in
            let t = Double(index) / 48_000
            return Float(max(-0.8, min(0.8, 0.7 * sin(2 * .pi * 997 * t) + 0.5 * sin(2 * .pi * 3_001 * t + Double(channel)))))
        }),
        ("noise, mono", 44_100, 1, { index, _ in
            var x = UInt64(index) &* 0x9E37_79B9_7F4A_7C15
            x ^= x >> 31
            x &*= 0xBF58_476D_1CE4_E5B9
            x ^= x >> 29
            return Float(Double(x % 2_000) / 1_000 - 1) * 0.6
        }),
        ("a 96 kHz recording, oversampled twice", 96_000, 2, { index, channel in
            Float(0.4 * sin(2 * .pi * 23_000 * Double(index) / 96_000 + Double(channel)))
        }),
        ("a 192 kHz recording: its samples", 192_000, 1, { index, _ in
            Float(0.3 * sin(2 * .pi * 1_000 * Double(index) / 192_000))
        }),
    ]

    /// Both loops: the AVX2 one where the processor has it, and the portable one.
    static let loops = TruePeakMeter.processorHasAVX2 ? [true, false] : [false]

    @Test(arguments: signals.map(\.name), loops)
    func readsWhatLibebur128Reads(name: String, usesAVX2: Bool) throws {
        let signal = try #require(Self.signals.first { $0.name == name })
        // Uneven pieces: single frames, a codec frame, one larger than the buffer.
        let pieces = [1, 7, 1_152, 3, 4_700, 1_024, 13, 9_000, 5]
        let frames = pieces.reduce(0, +)
        var samples = [Float](repeating: 0, count: frames * signal.channels)
        for frame in 0..<frames {
            for channel in 0..<signal.channels { samples[frame * signal.channels + channel] = signal.sample(frame, channel) }
        }
        let meter = TruePeakMeter(rate: signal.rate, channels: signal.channels, usesAVX2: usesAVX2)
        var state: UnsafeMutablePointer<ebur128_state>? = try #require(
            ebur128_init(UInt32(signal.channels), UInt(signal.rate), Int32(EBUR128_MODE_TRUE_PEAK.rawValue)))
        defer { ebur128_destroy(&state) }
        var offset = 0
        try samples.withUnsafeBufferPointer { all in
            for piece in pieces {
                let start = try #require(all.baseAddress) + offset * signal.channels
                meter.feed(start, frames: piece)
                #expect(ebur128_add_frames_float(state, start, piece) == 0)
                offset += piece
            }
        }
        var theirs = 0.0
        for channel in 0..<signal.channels {
            var peak = 0.0
            #expect(ebur128_true_peak(state, UInt32(channel), &peak) == 0)
            theirs = max(theirs, peak)
        }
        let ours = Double(meter.finish())
        #expect(abs(ours - theirs) <= theirs * 1e-5, "ours \(ours), libebur128's \(theirs)")
        #expect(ours > 0.2)
    }

    @Test func aSineBetweenItsSamplesPeaksThreeDecibelsAboveThem() throws {
        let meter = TruePeakMeter(rate: 44_100, channels: 1)
        let samples = (0..<44_100).map { Float(0.5 * sin(Double.pi / 2 * Double($0) + .pi / 4)) }
        samples.withUnsafeBufferPointer { meter.feed($0.baseAddress!, frames: $0.count) }
        let samplePeak = samples.map(abs).max() ?? 0
        let decibelsAbove = 20 * log10(Double(meter.finish() / samplePeak))
        // 3.01 dB in theory; the 49-tap filter reads about a tenth more at
        // 11 kHz, as libebur128 does (the test above).
        #expect(abs(decibelsAbove - 3.01) < 0.15, "\(decibelsAbove) dB")
    }
}
