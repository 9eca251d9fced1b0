import CAubio
import CChromaprint
import WavelengthCore
import WavelengthLibrary

/// Rhythm and fingerprint as they were measured before the one-decode
/// analysis: each decoding the file again through aubio's own source. Kept
/// so `wavelength-bench analysis --compare` and the tests can show the new
/// readings agree with the old. Blocking: call it off the cooperative pool
/// (the bench and tests only, on a few files).
public enum AubioSourceReference {
    /// aubio's tempo and onset rate, as `RhythmMeter` measured them before.
    public static func rhythm(path: String) -> RhythmReading? {
        guard let source = new_aubio_source(path, 22_050, 256) else { return nil }
        defer { del_aubio_source(source) }
        let rate = aubio_source_get_samplerate(source)
        guard let tempo = new_aubio_tempo("default", 512, 256, rate), let onset = new_aubio_onset("default", 512, 256, rate)
        else { return nil }
        defer {
            del_aubio_tempo(tempo)
            del_aubio_onset(onset)
        }
        let input = new_fvec(256)
        let beat = new_fvec(2)
        let onsetOut = new_fvec(1)
        defer {
            del_fvec(input)
            del_fvec(beat)
            del_fvec(onsetOut)
        }
        var frames = 0
        var onsets = 0
        var read: uint_t = 0
        repeat {
            aubio_source_do(source, input, &read)
            aubio_tempo_do(tempo, input, beat)
            aubio_onset_do(onset, input, onsetOut)
            if fvec_get_sample(onsetOut, 0) != 0 { onsets += 1 }
            frames += Int(read)
        } while read == 256 && frames < Int(rate) * 180
        let seconds = Double(frames) / Double(rate)
        guard seconds >= 1 else { return nil }
        let bpm = aubio_tempo_get_bpm(tempo)
        let trusted = bpm.isFinite && bpm > 0 && aubio_tempo_get_confidence(tempo) >= 0.1
        return RhythmReading(tempo: trusted ? (Double(bpm) * 10).rounded() / 10 : nil,
                             onsetRate: (Double(onsets) / seconds * 100).rounded() / 100)
    }

    /// Chromaprint's fingerprint of the first `seconds`, decoded by aubio at
    /// 11,025 Hz, as `FingerprintMeter` took it before.
    public static func fingerprint(path: String, seconds: Int = AudioFingerprint.longestSeconds) -> AudioFingerprint? {
        guard let source = new_aubio_source(path, 11_025, 4_096) else { return nil }
        defer { del_aubio_source(source) }
        guard let context = chromaprint_new(Int32(CHROMAPRINT_ALGORITHM_DEFAULT.rawValue)) else { return nil }
        defer { chromaprint_free(context) }
        guard chromaprint_start(context, 11_025, 1) == 1 else { return nil }
        let input = new_fvec(4_096)
        defer { del_fvec(input) }
        var samples = [Int16](repeating: 0, count: 4_096)
        var frames = 0
        var read: uint_t = 0
        repeat {
            aubio_source_do(source, input, &read)
            for index in 0..<Int(read) {
                samples[index] = Int16(max(-1, min(1, fvec_get_sample(input, uint_t(index)))) * 32_767)
            }
            if read > 0 { _ = chromaprint_feed(context, samples, Int32(read)) }
            frames += Int(read)
        } while read == 4_096 && frames < 11_025 * seconds
        guard chromaprint_finish(context) == 1 else { return nil }
        var raw: UnsafeMutablePointer<UInt32>?
        var size: Int32 = 0
        guard chromaprint_get_raw_fingerprint(context, &raw, &size) == 1, let raw, size > 0 else { return nil }
        defer { chromaprint_dealloc(raw) }
        return AudioFingerprint(items: Array(UnsafeBufferPointer(start: raw, count: Int(size))))
    }
}
