import CFFmpeg
import WavelengthCore

/// Decodes a file once, in process, and feeds every meter asked for from
/// that one decode: loudness (libebur128, the whole file at its own rate;
/// the true peak from the same samples, `TruePeakMeter`),
/// rhythm (aubio, mono 22,050 Hz, the first three minutes) and the
/// fingerprint (Chromaprint, mono 11,025 Hz, the first `fingerprintSeconds`).
/// Each meter gets its own libswresample conversion from the decoded frames.
///
/// The loops block, so they run on an `AnalysisLane`'s thread; the caller
/// awaits without holding a thread, and cancelling it stops the decode at
/// the next frame.
public enum TrackAnalyzer {
    public static func measure(
        path: String, meters: AnalysisMeters = .all,
        fingerprintSeconds: Int = AudioFingerprint.longestSeconds, on lane: AnalysisLane = .onDemand
    ) async throws -> TrackAnalysis {
        try Task.checkCancellation()
        let stop = StopSignal()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                lane.queue.async {
                    continuation.resume(with: Result {
                        try measureBlocking(path: path, meters: meters, fingerprintSeconds: fingerprintSeconds, stop: stop)
                    })
                }
            }
        } onCancel: {
            stop.raise()
        }
    }

    /// The whole measurement, on a lane's thread only. Throws only when cancelled.
    static func measureBlocking(
        path: String, meters: AnalysisMeters, fingerprintSeconds: Int, stop: StopSignal
    ) throws -> TrackAnalysis {
        FFmpegLogging.silence()
        _ = RhythmMeter.aubioSilenced
        let loudness = meters.contains(.loudness) ? MeterInput(LoudnessAccumulator()) : nil
        let rhythm = meters.contains(.rhythm) ? MeterInput(RhythmAccumulator()) : nil
        let fingerprint = meters.contains(.fingerprint) ? MeterInput(FingerprintAccumulator(seconds: fingerprintSeconds)) : nil
        let inputs: [any FrameTaking] = [loudness as (any FrameTaking)?, rhythm, fingerprint].compactMap { $0 }
        do {
            let decoder = try AudioDecoder(path: path)
            try decoder.forEachFrame { frame in
                if stop.isRaised { throw CancellationError() }
                for input in inputs { input.take(frame) }
                return inputs.contains { $0.wantsMore }
            }
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            // Not audio, or it broke off: nothing measured can be trusted.
            for input in inputs { input.fail(error) }
        }
        for input in inputs { input.flush() }
        return TrackAnalysis(
            loudness: loudness?.result { LoudnessMeter.Failure.unmeasurable("\($0)") },
            rhythm: rhythm?.result { _ in RhythmMeter.Failure.unreadable },
            fingerprint: fingerprint?.result { _ in FingerprintMeter.Failure.unreadable })
    }
}

/// What the decode loop sees of each meter's input, whatever it reads.
private protocol FrameTaking: AnyObject {
    var wantsMore: Bool { get }
    func take(_ frame: UnsafePointer<AVFrame>)
    func fail(_ error: any Error)
    func flush()
}

/// One meter and the conversion that feeds it, built from the first frame.
private final class MeterInput<Sink: SampleSink>: FrameTaking {
    let sink: Sink
    private var resampler: AudioResampler?
    /// Why this meter can't give a reading (the file, or the meter refused
    /// the rate or channels).
    private var failure: (any Error)?
    /// The stream changed format midway: what came before stands for the
    /// file, as a capped meter's first minutes do.
    private var formatChanged = false

    init(_ sink: Sink) {
        self.sink = sink
    }

    var wantsMore: Bool { failure == nil && !formatChanged && sink.wantsMoreFrames }

    func take(_ frame: UnsafePointer<AVFrame>) {
        guard wantsMore else { return }
        do {
            if resampler == nil {
                let made = try AudioResampler(output: sink.output(inputRate: frame.pointee.sample_rate), firstFrame: frame)
                try sink.start(rate: made.outputRate, channels: made.outputChannels)
                resampler = made
            }
            guard let resampler, resampler.accepts(frame) else {
                formatChanged = true
                return
            }
            try resampler.convert(frame) { sink.feed($0, frames: $1) }
        } catch {
            failure = error
        }
    }

    func fail(_ error: any Error) {
        failure = error
    }

    /// Feeds what the resampler still holds back (its filter's delay).
    func flush() {
        guard failure == nil, sink.wantsMoreFrames, let resampler else { return }
        try? resampler.convert(nil) { sink.feed($0, frames: $1) }
    }

    /// The reading; a meter's own failure passes through, anything else
    /// (the decoder's, the resampler's) becomes that meter's "unreadable".
    func result(unreadable: (any Error) -> any Error) -> Result<Sink.Reading, any Error> {
        if let failure {
            let ownFailure = failure is LoudnessMeter.Failure || failure is RhythmMeter.Failure
                || failure is FingerprintMeter.Failure
            return .failure(ownFailure ? failure : unreadable(failure))
        }
        return Result { try sink.finish() }
    }
}
