import CEbur128
import CFFmpeg
import Foundation

/// EBU R128 loudness with libebur128, fed the decoded samples of a whole
/// file at its own rate and channels (the K-weighting and the channel sum
/// are defined on exactly those).
///
/// True peak is libebur128's: 4× oversampled below 96 kHz, as the
/// standard's annex asks. FFmpeg's `ebur128` filter, which measured before,
/// resamples to 48 kHz and then oversamples to 192 kHz; the two agree to a
/// few tenths of a dB, well inside what the gain's peak limit cares about.
final class LoudnessAccumulator: SampleSink {
    let output = AudioResampler.Output(rate: nil, channels: .asDecoded, format: AV_SAMPLE_FMT_FLT)
    /// The whole file: integrated loudness and range need all of it.
    let wantsMoreFrames = true
    private var state: UnsafeMutablePointer<ebur128_state>?
    private var channels: UInt32 = 0

    func start(rate: Int32, channels: Int32) throws {
        let mode = EBUR128_MODE_I.rawValue | EBUR128_MODE_LRA.rawValue | EBUR128_MODE_TRUE_PEAK.rawValue
            // Histogram mode keeps memory flat however long the file is.
            | EBUR128_MODE_HISTOGRAM.rawValue
        guard let state = ebur128_init(UInt32(channels), UInt(rate), Int32(mode)) else {
            throw LoudnessMeter.Failure.unmeasurable("libebur128 cannot measure \(channels) channels at \(rate) Hz")
        }
        self.state = state
        self.channels = UInt32(channels)
    }

    func feed(_ samples: UnsafeRawPointer, frames: Int) {
        _ = ebur128_add_frames_float(state, samples.assumingMemoryBound(to: Float.self), frames)
    }

    func finish() throws -> LoudnessReading {
        guard state != nil else { throw LoudnessMeter.Failure.unmeasurable("no audio") }
        var integrated = -Double.infinity
        var range = 0.0
        _ = ebur128_loudness_global(state, &integrated)
        _ = ebur128_loudness_range(state, &range)
        var peak = 0.0
        for channel in 0..<channels {
            var channelPeak = 0.0
            if ebur128_true_peak(state, channel, &channelPeak) == 0 { peak = max(peak, channelPeak) }
        }
        // Silence (or -70 LUFS, the gate) has no loudness to match.
        guard integrated.isFinite, integrated > -70, range.isFinite else {
            throw LoudnessMeter.Failure.unmeasurable("silence")
        }
        // A peak that can't be read is taken as full scale: the gain then
        // never boosts past 0 dBFS.
        let peakDb = peak > 0 ? 20 * log10(peak) : 0
        return LoudnessReading(integrated: integrated, range: range, truePeak: peakDb)
    }

    deinit {
        // ebur128_destroy reads the state it is given: only one that was made.
        if state != nil { ebur128_destroy(&state) }
    }
}
