import CAubio
import Dispatch
import Synchronization

/// Measures a track's tempo and onset rate with aubio, in-process.
///
/// aubio decodes through FFmpeg's libraries and its detectors are plain
/// blocking C loops, so the work runs on one dedicated serial queue, never
/// on Swift's cooperative pool (two threads here, which the server needs for
/// playback). The caller awaits it without holding a thread, and cancelling
/// the caller stops the loop at the next block.
public enum RhythmMeter {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// aubio could not open or decode the file.
        case unreadable
        /// Less than a second of audio: too little to hear a rhythm in.
        case tooShort

        public var description: String {
            switch self {
            case .unreadable: "could not read the audio for its rhythm"
            case .tooShort: "too short to measure a rhythm"
            }
        }
    }

    /// Beat and onset detection need no more than this; decoding resamples
    /// to it, which halves the work at CD rate.
    static let sampleRate: UInt32 = 22_050
    /// aubio's defaults for both detectors are a 1024-sample window read 512
    /// at a time at 44.1 kHz; half of each at half the rate keeps the same
    /// 23 ms and 12 ms (its onset detector misses most clicks otherwise).
    static let window: UInt32 = 512
    static let hop: UInt32 = 256
    /// The first three minutes say what a song's rhythm is; a two-hour DJ
    /// mix is not decoded to the end.
    static let longestAnalysedSeconds = 180
    /// Below this, aubio's beat tracker is guessing (it reports a tempo for
    /// noise too).
    static let leastTempoConfidence: Float = 0.1

    private static let queue = DispatchQueue(label: "wavelength.rhythm", qos: .utility)

    public static func measure(path: String) async throws -> RhythmReading {
        try Task.checkCancellation()
        let stop = StopSignal()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                queue.async {
                    continuation.resume(with: Result { try measureBlocking(path: path, stop: stop) })
                }
            }
        } onCancel: {
            stop.raise()
        }
    }

    /// The whole measurement, on `queue` only.
    private static func measureBlocking(path: String, stop: StopSignal) throws -> RhythmReading {
        FFmpegLogging.silence()
        _ = aubioSilenced
        guard let source = new_aubio_source(path, sampleRate, hop) else { throw Failure.unreadable }
        defer { del_aubio_source(source) }
        let rate = aubio_source_get_samplerate(source)
        guard rate > 0,
            let tempo = new_aubio_tempo("default", window, hop, rate),
            let onset = new_aubio_onset("default", window, hop, rate)
        else { throw Failure.unreadable }
        defer {
            del_aubio_tempo(tempo)
            del_aubio_onset(onset)
        }
        let input = new_fvec(hop)
        let beat = new_fvec(2)
        let onsetOut = new_fvec(1)
        defer {
            del_fvec(input)
            del_fvec(beat)
            del_fvec(onsetOut)
        }
        let mostFrames = Int(rate) * longestAnalysedSeconds
        var frames = 0
        var onsets = 0
        var read: uint_t = 0
        repeat {
            if stop.isRaised { throw CancellationError() }
            aubio_source_do(source, input, &read)
            aubio_tempo_do(tempo, input, beat)
            aubio_onset_do(onset, input, onsetOut)
            if fvec_get_sample(onsetOut, 0) != 0 { onsets += 1 }
            frames += Int(read)
        } while read == hop && frames < mostFrames
        let seconds = Double(frames) / Double(rate)
        guard seconds >= 1 else { throw Failure.tooShort }
        let bpm = aubio_tempo_get_bpm(tempo)
        let trusted = bpm.isFinite && bpm > 0 && aubio_tempo_get_confidence(tempo) >= leastTempoConfidence
        return RhythmReading(tempo: trusted ? (Double(bpm) * 10).rounded() / 10 : nil,
                             onsetRate: (Double(onsets) / seconds * 100).rounded() / 100)
    }

    /// aubio prints a failed open to standard error itself; the caller logs
    /// the failure once, with the path, instead. Evaluated once, thread-safely.
    private static let aubioSilenced: Void = {
        for level in [AUBIO_LOG_ERR, AUBIO_LOG_WRN] {
            _ = aubio_log_set_level_function(sint_t(level.rawValue), { _, _, _ in }, nil)
        }
    }()
}

/// Set from the cancelling task, read by a meter's loop on its own queue
/// (the rhythm's and the fingerprint's).
final class StopSignal: Sendable {
    private let raised = Atomic<Bool>(false)

    func raise() { raised.store(true, ordering: .relaxed) }
    var isRaised: Bool { raised.load(ordering: .relaxed) }
}
