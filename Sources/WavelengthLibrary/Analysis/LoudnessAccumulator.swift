import Foundation
import CEbur128
import CFFmpeg

/// EBU R128 integrated loudness with libebur128, fed the decoded samples of
/// a whole file at its own rate and channels (the K-weighting and the
/// channel sum are defined on exactly those). The loudness range comes from
/// each 100 ms block's energy, which libebur128 reports when fed up to each
/// block's end (`LoudnessRange`). The true peak is `TruePeakMeter`'s, fed
/// the same samples.
final class LoudnessAccumulator: SampleSink {
    func output(inputRate: Int32) -> AudioResampler.Output {
        AudioResampler.Output(rate: nil, channels: .asDecoded, format: AV_SAMPLE_FMT_FLT)
    }
    /// The whole file: integrated loudness and range need all of it.
    let wantsMoreFrames = true
    private var state: UnsafeMutablePointer<ebur128_state>?
    private var channels = 1
    private var blockFrames = 4_410
    private var framesInBlock = 0
    private var shortTerm = LoudnessRange.ShortTerm()
    private var truePeak: TruePeakMeter?

    func start(rate: Int32, channels: Int32) throws {
        // Not histogram mode, whose 0.1 LU bins round the blocks' energies:
        // the exact mode keeps one double a 100 ms (0.6 MB for a two-hour mix).
        let mode = EBUR128_MODE_I.rawValue
        guard let state = ebur128_init(UInt32(channels), UInt(rate), Int32(mode)) else {
            throw LoudnessMeter.Failure.unmeasurable("libebur128 cannot measure \(channels) channels at \(rate) Hz")
        }
        self.state = state
        self.channels = Int(channels)
        truePeak = TruePeakMeter(rate: Int(rate), channels: Int(channels))
        // libebur128's own count of frames in 100 ms.
        blockFrames = (Int(rate) + 5) / 10
    }

    func feed(_ samples: UnsafeRawPointer, frames: Int) {
        var floats = samples.assumingMemoryBound(to: Float.self)
        truePeak?.feed(floats, frames: frames)
        var left = frames
        while left > 0 {
            let taken = min(left, blockFrames - framesInBlock)
            _ = ebur128_add_frames_float(state, floats, taken)
            floats += taken * channels
            left -= taken
            framesInBlock += taken
            if framesInBlock == blockFrames {
                framesInBlock = 0
                var blockLoudness = -Double.infinity
                _ = ebur128_loudness_window(state, 100, &blockLoudness)
                shortTerm.add(blockEnergy: blockLoudness.isFinite ? pow(10, (blockLoudness + 0.691) / 10) : 0)
            }
        }
    }

    func finish() throws -> LoudnessReading {
        guard state != nil else { throw LoudnessMeter.Failure.unmeasurable("no audio") }
        var integrated = -Double.infinity
        _ = ebur128_loudness_global(state, &integrated)
        let range = LoudnessRange.of(shortTermEnergies: shortTerm.energies)
        // Silence (or -70 LUFS, the gate) has no loudness to match.
        guard integrated.isFinite, integrated > -70 else {
            throw LoudnessMeter.Failure.unmeasurable("silence")
        }
        // Not silence, so some sample is above zero.
        let peak = truePeak?.finish() ?? 1
        return LoudnessReading(integrated: integrated, range: range, truePeak: 20 * log10(Double(max(peak, .leastNonzeroMagnitude))))
    }

    deinit {
        // ebur128_destroy reads the state it is given: only one that was made.
        if state != nil { ebur128_destroy(&state) }
    }
}
