import CChromaprint
import CFFmpeg
import WavelengthCore

/// Chromaprint's fingerprint, fed 16-bit mono at 11,025 Hz (the rate it
/// works at, so it resamples nothing itself) from the shared decode, for at
/// most the first `seconds`.
final class FingerprintAccumulator: SampleSink {
    func output(inputRate: Int32) -> AudioResampler.Output {
        AudioResampler.Output(rate: Int32(FingerprintMeter.sampleRate), channels: .mono, format: AV_SAMPLE_FMT_S16)
    }
    private let context: OpaquePointer?
    private let mostFrames: Int
    private var fedFrames = 0
    private var started = false

    init(seconds: Int) {
        context = chromaprint_new(Int32(CHROMAPRINT_ALGORITHM_DEFAULT.rawValue))
        mostFrames = Int(FingerprintMeter.sampleRate) * seconds
    }

    var wantsMoreFrames: Bool { fedFrames < mostFrames }

    func start(rate: Int32, channels: Int32) throws {
        guard let context, channels == 1, chromaprint_start(context, rate, 1) == 1 else {
            throw FingerprintMeter.Failure.unreadable
        }
        started = true
    }

    func feed(_ samples: UnsafeRawPointer, frames: Int) {
        let taken = min(frames, mostFrames - fedFrames)
        guard taken > 0 else { return }
        _ = chromaprint_feed(context, samples.assumingMemoryBound(to: Int16.self), Int32(taken))
        fedFrames += taken
    }

    func finish() throws -> AudioFingerprint {
        guard started, let context else { throw FingerprintMeter.Failure.unreadable }
        guard fedFrames >= Int(FingerprintMeter.sampleRate) * 3 else { throw FingerprintMeter.Failure.tooShort }
        guard chromaprint_finish(context) == 1 else { throw FingerprintMeter.Failure.unreadable }
        var raw: UnsafeMutablePointer<UInt32>?
        var size: Int32 = 0
        guard chromaprint_get_raw_fingerprint(context, &raw, &size) == 1, let raw, size > 0 else {
            throw FingerprintMeter.Failure.tooShort
        }
        defer { chromaprint_dealloc(raw) }
        return AudioFingerprint(items: Array(UnsafeBufferPointer(start: raw, count: Int(size))))
    }

    deinit {
        if let context { chromaprint_free(context) }
    }
}
