import CAubio
import CChromaprint
import Dispatch
import WavelengthCore

/// Chromaprint's fingerprint of a file: the raw 32-bit items, one per
/// `AudioFingerprint.itemMillis`, for matching a clip from anywhere in it.
///
/// Decoding goes through aubio's source (FFmpeg's libraries, resampled to
/// 11,025 Hz mono, the rate Chromaprint works at), on a dedicated serial
/// queue like the rhythm meter's, never on Swift's cooperative pool.
public enum FingerprintMeter {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case unreadable
        /// Less than three seconds of audio: too little to recognise.
        case tooShort

        public var description: String {
            switch self {
            case .unreadable: "could not read the audio for its fingerprint"
            case .tooShort: "too short to fingerprint"
            }
        }
    }

    static let sampleRate: UInt32 = 11_025
    static let hop: UInt32 = 4_096

    private static let queue = DispatchQueue(label: "wavelength.fingerprint", qos: .utility)

    /// The fingerprint of at most `seconds` of `path` from its start.
    public static func measure(path: String, seconds: Int = AudioFingerprint.longestSeconds) async throws -> AudioFingerprint {
        try Task.checkCancellation()
        let stop = StopSignal()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                queue.async {
                    continuation.resume(with: Result { try measureBlocking(path: path, seconds: seconds, stop: stop) })
                }
            }
        } onCancel: {
            stop.raise()
        }
    }

    private static func measureBlocking(path: String, seconds: Int, stop: StopSignal) throws -> AudioFingerprint {
        FFmpegLogging.silence()
        guard let source = new_aubio_source(path, sampleRate, hop) else { throw Failure.unreadable }
        defer { del_aubio_source(source) }
        guard let context = chromaprint_new(Int32(CHROMAPRINT_ALGORITHM_DEFAULT.rawValue)) else { throw Failure.unreadable }
        defer { chromaprint_free(context) }
        guard chromaprint_start(context, Int32(sampleRate), 1) == 1 else { throw Failure.unreadable }
        let input = new_fvec(hop)
        defer { del_fvec(input) }
        var samples = [Int16](repeating: 0, count: Int(hop))
        let most = Int(sampleRate) * seconds
        var frames = 0
        var read: uint_t = 0
        repeat {
            if stop.isRaised { throw CancellationError() }
            aubio_source_do(source, input, &read)
            for index in 0..<Int(read) {
                let sample = fvec_get_sample(input, uint_t(index))
                samples[index] = Int16(max(-1, min(1, sample)) * 32_767)
            }
            if read > 0 { _ = chromaprint_feed(context, samples, Int32(read)) }
            frames += Int(read)
        } while read == hop && frames < most
        guard frames >= Int(sampleRate) * 3 else { throw Failure.tooShort }
        guard chromaprint_finish(context) == 1 else { throw Failure.unreadable }
        var raw: UnsafeMutablePointer<UInt32>?
        var size: Int32 = 0
        guard chromaprint_get_raw_fingerprint(context, &raw, &size) == 1, let raw, size > 0 else {
            throw Failure.tooShort
        }
        defer { chromaprint_dealloc(raw) }
        return AudioFingerprint(items: Array(UnsafeBufferPointer(start: raw, count: Int(size))))
    }
}
