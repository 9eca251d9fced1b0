import CFFmpeg
import CSamplePeak
import Foundation

/// The true peak (dBTP): the largest magnitude of the whole file
/// oversampled 4× (2× from 96 kHz; none from 192 kHz), as EBU R128's annex
/// asks, so the peaks between samples count too.
///
/// Oversampled by libswresample's polyphase filter, which is what FFmpeg's
/// `ebur128` filter (the loudness measured before) does, and about twice as
/// fast as libebur128's own interpolator, which was a third of the whole
/// analysis. The largest magnitude is found in C (`wavelength_largest_magnitude`).
final class TruePeakAccumulator: SampleSink {
    private var largest: Float = 0
    private var fed = false
    private var channels = 1
    let wantsMoreFrames = true

    func output(inputRate: Int32) -> AudioResampler.Output {
        let factor: Int32 = inputRate < 96_000 ? 4 : inputRate < 192_000 ? 2 : 1
        return AudioResampler.Output(rate: inputRate * factor, channels: .asDecoded, format: AV_SAMPLE_FMT_FLT)
    }

    func start(rate: Int32, channels: Int32) throws {
        self.channels = Int(channels)
    }

    func feed(_ samples: UnsafeRawPointer, frames: Int) {
        // Interleaved: every channel's samples, and the peak of any counts.
        let count = frames * channels
        largest = max(largest, wavelength_largest_magnitude(samples.assumingMemoryBound(to: Float.self), count))
        fed = true
    }

    func finish() throws -> Double {
        guard fed, largest > 0 else { throw LoudnessMeter.Failure.unmeasurable("no peak") }
        return 20 * log10(Double(largest))
    }
}
