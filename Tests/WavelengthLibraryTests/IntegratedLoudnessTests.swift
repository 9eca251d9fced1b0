import CEbur128
import Foundation
import Testing
@testable import WavelengthLibrary

/// The loudness meter gates its own 100 ms blocks (`IntegratedLoudness`):
/// fed the same samples, it must read libebur128's integrated loudness.
@Suite("Integrated loudness")
struct IntegratedLoudnessTests {
    /// Loud and quiet passages (some under the relative gate), silence
    /// (under the absolute one), and lengths that end mid-block.
    static let signals: [(name: String, rate: Int, channels: Int, seconds: Double, sample: @Sendable (Int, Int) -> Float)] = [
        ("a song with a quiet bridge", 44_100, 2, 21.37, { index, channel in
            let t = Double(index) / 44_100
            let level = t > 8 && t < 12 ? 0.02 : 0.5
            return Float(level * sin(2 * .pi * (440 + 110 * Double(channel)) * t) * (0.6 + 0.4 * sin(2 * .pi * 0.5 * t)))
        }),
        ("noise with silence between, 48 kHz", 48_000, 2, 17.05, { index, channel in
            let t = Double(index) / 48_000
            guard fmod(t, 5) < 3 else { return 0 }
            var x = UInt64(index * 2 + channel) &* 0x9E37_79B9_7F4A_7C15
            x ^= x >> 31
            x &*= 0xBF58_476D_1CE4_E5B9
            x ^= x >> 29
            return Float(Double(x % 2_000) / 1_000 - 1) * Float(0.1 + 0.1 * t / 17)
        }),
        ("a mono voice, 22.05 kHz", 22_050, 1, 9.99, { index, _ in
            let t = Double(index) / 22_050
            return Float(0.3 * sin(2 * .pi * 180 * t) * max(0, sin(2 * .pi * 1.3 * t)))
        }),
    ]

    @Test(arguments: signals.map(\.name))
    func readsWhatLibebur128Reads(name: String) throws {
        let signal = try #require(Self.signals.first { $0.name == name })
        let frames = Int(signal.seconds * Double(signal.rate))
        var samples = [Float](repeating: 0, count: frames * signal.channels)
        for frame in 0..<frames {
            for channel in 0..<signal.channels { samples[frame * signal.channels + channel] = signal.sample(frame, channel) }
        }
        let meter = LoudnessAccumulator()
        try meter.start(rate: Int32(signal.rate), channels: Int32(signal.channels))
        var state: UnsafeMutablePointer<ebur128_state>? = try #require(
            ebur128_init(UInt32(signal.channels), UInt(signal.rate), Int32(EBUR128_MODE_I.rawValue)))
        defer { ebur128_destroy(&state) }
        try samples.withUnsafeBufferPointer { all in
            var offset = 0
            // A decoder's frames: they rarely end on a block.
            while offset < frames {
                let piece = min(1_152, frames - offset)
                let start = try #require(all.baseAddress) + offset * signal.channels
                meter.feed(UnsafeRawPointer(start), frames: piece)
                #expect(ebur128_add_frames_float(state, start, piece) == 0)
                offset += piece
            }
        }
        var theirs = 0.0
        #expect(ebur128_loudness_global(state, &theirs) == 0)
        let ours = try meter.finish().integrated
        #expect(abs(ours - theirs) < 0.000_1, "ours \(ours) LUFS, libebur128's \(theirs)")
    }

    @Test func nothingAudibleHasNoLoudness() {
        var gated = IntegratedLoudness()
        for _ in 0..<50 { gated.add(blockEnergy: 0) }
        #expect(gated.loudness == -.infinity)
        #expect(gated.audibleBlocks.isEmpty)
    }
}
