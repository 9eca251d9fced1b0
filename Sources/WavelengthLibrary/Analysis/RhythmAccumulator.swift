import CAubio
import CFFmpeg
import WavelengthCore

/// Tempo and onset rate with aubio's detectors (`RhythmDetectors`, one
/// spectrum for both), fed mono floats at 22,050 Hz from the shared decode,
/// one hop at a time, for at most the first three minutes (see
/// `RhythmMeter` for the settings and why).
final class RhythmAccumulator: SampleSink {
    func output(inputRate: Int32) -> AudioResampler.Output {
        AudioResampler.Output(rate: Int32(RhythmMeter.sampleRate), channels: .mono, format: AV_SAMPLE_FMT_FLT)
    }
    private var detectors: RhythmDetectors?
    private let hop = Int(RhythmMeter.hop)
    /// The hop being gathered: the decoder's frames rarely end on a hop.
    private let pending: UnsafeMutablePointer<Float>
    private var pendingCount = 0
    private var rate: Int32 = 0
    private var analysedFrames = 0

    init() {
        pending = .allocate(capacity: Int(RhythmMeter.hop))
    }

    var wantsMoreFrames: Bool {
        rate == 0 || analysedFrames < Int(rate) * RhythmMeter.longestAnalysedSeconds
    }

    func start(rate: Int32, channels: Int32) throws {
        guard rate > 0, channels == 1,
            let detectors = RhythmDetectors(window: Int(RhythmMeter.window), hop: hop, rate: UInt32(rate))
        else { throw RhythmMeter.Failure.unreadable }
        self.detectors = detectors
        self.rate = rate
    }

    func feed(_ samples: UnsafeRawPointer, frames: Int) {
        var floats = samples.assumingMemoryBound(to: Float.self)
        var left = frames
        while left > 0 && wantsMoreFrames {
            let taken = min(left, hop - pendingCount)
            (pending + pendingCount).update(from: floats, count: taken)
            pendingCount += taken
            floats += taken
            left -= taken
            if pendingCount == hop { detect(frames: hop) }
        }
    }

    /// The last, partial hop is padded with silence, as aubio's own source did.
    func finish() throws -> RhythmReading {
        guard let detectors else { throw RhythmMeter.Failure.unreadable }
        if pendingCount > 0 && wantsMoreFrames {
            (pending + pendingCount).update(repeating: 0, count: hop - pendingCount)
            detect(frames: pendingCount)
        }
        let seconds = Double(analysedFrames) / Double(rate)
        guard seconds >= 1 else { throw RhythmMeter.Failure.tooShort }
        let bpm = detectors.bpm
        let trusted = bpm.isFinite && bpm > 0 && detectors.confidence >= RhythmMeter.leastTempoConfidence
        return RhythmReading(tempo: trusted ? (Double(bpm) * 10).rounded() / 10 : nil,
                             onsetRate: (Double(detectors.onsets) / seconds * 100).rounded() / 100)
    }

    /// Runs both detectors over the gathered hop; `frames` of it are audio.
    private func detect(frames: Int) {
        var input = fvec_t(length: uint_t(hop), data: pending)
        detectors?.detect(&input)
        analysedFrames += frames
        pendingCount = 0
    }

    deinit {
        pending.deallocate()
    }
}
