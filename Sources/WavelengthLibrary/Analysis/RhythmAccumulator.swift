import CAubio
import CFFmpeg

/// Tempo and onset rate with aubio's detectors, fed mono floats at 22,050 Hz
/// from the shared decode, one hop at a time, for at most the first three
/// minutes (see `RhythmMeter` for the settings and why).
final class RhythmAccumulator: SampleSink {
    func output(inputRate: Int32) -> AudioResampler.Output {
        AudioResampler.Output(rate: Int32(RhythmMeter.sampleRate), channels: .mono, format: AV_SAMPLE_FMT_FLT)
    }
    private var tempo: OpaquePointer?
    private var onset: OpaquePointer?
    private let hop = Int(RhythmMeter.hop)
    /// The hop being gathered: the decoder's frames rarely end on a hop.
    private let pending: UnsafeMutablePointer<Float>
    private var pendingCount = 0
    private let beat = new_fvec(2)
    private let onsetOut = new_fvec(1)
    private var rate: Int32 = 0
    private var analysedFrames = 0
    private var onsets = 0

    init() {
        pending = .allocate(capacity: Int(RhythmMeter.hop))
    }

    var wantsMoreFrames: Bool {
        rate == 0 || analysedFrames < Int(rate) * RhythmMeter.longestAnalysedSeconds
    }

    func start(rate: Int32, channels: Int32) throws {
        guard rate > 0, channels == 1,
            let tempo = new_aubio_tempo("default", RhythmMeter.window, RhythmMeter.hop, uint_t(rate)),
            let onset = new_aubio_onset("default", RhythmMeter.window, RhythmMeter.hop, uint_t(rate))
        else { throw RhythmMeter.Failure.unreadable }
        self.tempo = tempo
        self.onset = onset
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
        guard tempo != nil, onset != nil else { throw RhythmMeter.Failure.unreadable }
        if pendingCount > 0 && wantsMoreFrames {
            (pending + pendingCount).update(repeating: 0, count: hop - pendingCount)
            detect(frames: pendingCount)
        }
        let seconds = Double(analysedFrames) / Double(rate)
        guard seconds >= 1 else { throw RhythmMeter.Failure.tooShort }
        let bpm = aubio_tempo_get_bpm(tempo)
        let trusted = bpm.isFinite && bpm > 0 && aubio_tempo_get_confidence(tempo) >= RhythmMeter.leastTempoConfidence
        return RhythmReading(tempo: trusted ? (Double(bpm) * 10).rounded() / 10 : nil,
                             onsetRate: (Double(onsets) / seconds * 100).rounded() / 100)
    }

    /// Runs both detectors over the gathered hop; `frames` of it are audio.
    private func detect(frames: Int) {
        var input = fvec_t(length: uint_t(hop), data: pending)
        aubio_tempo_do(tempo, &input, beat)
        aubio_onset_do(onset, &input, onsetOut)
        if fvec_get_sample(onsetOut, 0) != 0 { onsets += 1 }
        analysedFrames += frames
        pendingCount = 0
    }

    deinit {
        if let tempo { del_aubio_tempo(tempo) }
        if let onset { del_aubio_onset(onset) }
        del_fvec(beat)
        del_fvec(onsetOut)
        pending.deallocate()
    }
}
