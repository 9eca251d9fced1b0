import Foundation
import CEbur128
import CFFmpeg
import WavelengthCore

/// EBU R128 loudness with libebur128's K-weighting, fed the decoded samples
/// of a whole file at its own rate and channels (the filter and the channel
/// sum are defined on exactly those). libebur128 reports each 100 ms
/// block's energy when fed up to the block's end; the integrated loudness
/// (`IntegratedLoudness`) and the range (`LoudnessRange`) are gated from
/// those. The true peak is `TruePeakMeter`'s, fed the same samples.
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
    private var gated = IntegratedLoudness()
    private var truePeak: TruePeakMeter?

    func start(rate: Int32, channels: Int32) throws {
        // Momentary mode: the filter and 400 ms of it kept, without
        // libebur128's own gating blocks (`IntegratedLoudness` has them).
        let mode = EBUR128_MODE_M.rawValue
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
                let energy = blockLoudness.isFinite ? pow(10, (blockLoudness + 0.691) / 10) : 0
                shortTerm.add(blockEnergy: energy)
                gated.add(blockEnergy: energy)
            }
        }
    }

    func finish() throws -> LoudnessReading {
        guard state != nil else { throw LoudnessMeter.Failure.unmeasurable("no audio") }
        let integrated = gated.loudness
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
