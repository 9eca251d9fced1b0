import Dispatch
import Foundation
import WavelengthCore
import WavelengthLibrary
import WavelengthTestSupport

/// `wavelength-bench analysis --compare`: each file's readings from the one
/// decode next to how they were measured before, with the differences the
/// analysis promises to keep small (loudness within 0.1 LU, tempo within
/// 1 BPM, the fingerprint still found by "what's this song?").
enum AnalysisComparison {
    static func print(paths: [String]) async throws {
        Swift.print("  reading comparison, old → new (loudness: ffmpeg ebur128 CLI → libebur128; rhythm and fingerprint: aubio source → one decode):")
        var worstLoudness = 0.0, worstRange = 0.0, worstPeak = 0.0, worstTempo = 0.0
        var found = 0
        for path in paths {
            let name = (path as NSString).lastPathComponent
            let new = try await TrackAnalyzer.measure(path: path)
            let oldLoudness = try? await FFmpegLoudnessReference.measure(path: path)
            let (oldRhythm, oldPrint) = await offPool {
                (AubioSourceReference.rhythm(path: path), AubioSourceReference.fingerprint(path: path))
            }
            let newLoudness = try? new.loudness?.get()
            let newRhythm = try? new.rhythm?.get()
            let newPrint = try? new.fingerprint?.get()
            if let oldLoudness, let newLoudness {
                worstLoudness = max(worstLoudness, abs(oldLoudness.integrated - newLoudness.integrated))
                worstRange = max(worstRange, abs(oldLoudness.range - newLoudness.range))
                worstPeak = max(worstPeak, abs(oldLoudness.truePeak - newLoudness.truePeak))
            }
            if let old = oldRhythm?.tempo, let new = newRhythm?.tempo { worstTempo = max(worstTempo, abs(old - new)) }
            // Found as identify finds a clip: the new fingerprint against an index of the old.
            var matched = "-"
            if let oldPrint, let newPrint {
                let match = FingerprintIndex([("old", oldPrint)]).match(newPrint)
                if match != nil { found += 1 }
                matched = match.map { String(format: "found (similarity %.2f)", $0.similarity) } ?? "NOT FOUND"
            }
            Swift.print(
                "    \(name): I \(show(oldLoudness?.integrated)) → \(show(newLoudness?.integrated)) LUFS, "
                    + "LRA \(show(oldLoudness?.range)) → \(show(newLoudness?.range)) LU, "
                    + "peak \(show(oldLoudness?.truePeak)) → \(show(newLoudness?.truePeak)) dBTP; "
                    + "tempo \(show(oldRhythm?.tempo)) → \(show(newRhythm?.tempo)) BPM, "
                    + "onsets \(show(oldRhythm?.onsetRate)) → \(show(newRhythm?.onsetRate))/s; fingerprint \(matched)")
        }
        Swift.print(
            "  largest differences: integrated \(show(worstLoudness)) LU, range \(show(worstRange)) LU, "
                + "true peak \(show(worstPeak)) dB, tempo \(show(worstTempo)) BPM; fingerprints found \(found)/\(paths.count)")
    }

    /// The audio files under `folder` (the demo library's mixed formats).
    static func audioFiles(in folder: String) -> [String] {
        let kinds: Set<String> = ["mp3", "ogg", "opus", "flac", "m4a"]
        let names = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
        return names.filter { kinds.contains(($0 as NSString).pathExtension.lowercased()) }.sorted()
            .map { folder + "/" + $0 }
    }

    private static func show(_ value: Double?) -> String {
        value.map { String(format: "%.2f", $0) } ?? "-"
    }

    /// The old readings block in C loops: off the cooperative pool.
    static func offPool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .utility).async { continuation.resume(returning: work()) }
        }
    }
}
