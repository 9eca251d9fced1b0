import ArgumentParser
import Foundation
import WavelengthCore
import WavelengthLibrary

/// "What's this song?": how often a 12 s clip is recognised, and how long
/// matching takes against a 10,000-track index.
///
/// Generates `tracks` distinct songs (each its own seeded melody, bass and
/// beat, so their chroma differ as real songs' do), fingerprints them with
/// Chromaprint, and fills the index up to `index` tracks with random
/// fingerprints of song length (what matching time depends on is the index's
/// size; their audio would only cost generation time). Then, for clips cut
/// at random offsets: clean, with white noise mixed in, and re-encoded to a
/// 32 kbps MP3, it prints the share recognised (right track, offset within a
/// second) and the matching time.
struct BenchIdentify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "identify", abstract: "Chromaprint song recognition: accuracy on clips, and matching time.")

    @Option(help: "How many real songs to generate and fingerprint.")
    var tracks: Int = 40

    @Option(help: "How many tracks the index holds (the rest random fingerprints).")
    var index: Int = 10_000

    @Option(help: "How many clips of each kind.")
    var clips: Int = 40

    @Option(help: "Clip length in seconds.")
    var clipSeconds: Int = 12

    @Option(help: "Seed for the melodies and offsets.")
    var seed: UInt64 = 7

    func validate() throws {
        guard (2...2_000).contains(tracks) else { throw ValidationError("--tracks must be 2…2000") }
        guard (tracks...200_000).contains(index) else { throw ValidationError("--index must be --tracks…200000") }
        guard (1...1_000).contains(clips) else { throw ValidationError("--clips must be 1…1000") }
        guard (5...60).contains(clipSeconds) else { throw ValidationError("--clip-seconds must be 5…60") }
    }

    static let songSeconds = 90

    func run() async throws {
        let folder = NSTemporaryDirectory() + "wavelength-bench-identify-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var rng = SeededRandom(seed: seed)

        let started = Date()
        let songs = (0..<tracks).map { "\(folder)/song-\($0).mp3" }
        let recipes = (0..<tracks).map { MelodyRecipe.lavfi(seed: seed &* 1_000 &+ UInt64($0)) }
        // Two ffmpegs at a time (a core each).
        for pair in stride(from: 0, to: tracks, by: 2) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for number in pair..<min(pair + 2, tracks) {
                    let (path, recipe) = (songs[number], recipes[number])
                    group.addTask {
                        try await Self.ffmpeg(["-f", "lavfi", "-i", recipe, "-t", "\(Self.songSeconds)", "-c:a", "libmp3lame", "-b:a", "128k", path])
                    }
                }
                try await group.waitForAll()
            }
        }
        print("generated \(tracks) songs of \(Self.songSeconds) s in \(Self.format(Date().timeIntervalSince(started))) s")

        let printStart = Date()
        var fingerprints: [(TrackID, AudioFingerprint)] = []
        for (number, path) in songs.enumerated() {
            fingerprints.append(("song-\(number)", try await FingerprintMeter.measure(path: path)))
        }
        let printSeconds = Date().timeIntervalSince(printStart)
        print(
            "fingerprinted \(tracks) songs in \(Self.format(printSeconds)) s "
                + "(\(String(format: "%.0f", Double(tracks * Self.songSeconds) / printSeconds))× real time)")
        let itemsPerSong = fingerprints.map(\.1.items.count).max() ?? 0
        for filler in tracks..<index {
            fingerprints.append(("filler-\(filler)", AudioFingerprint(items: (0..<itemsPerSong).map { _ in UInt32.random(in: 0...UInt32.max, using: &rng) })))
        }
        let buildStart = Date()
        let indexed = FingerprintIndex(fingerprints)
        print(
            "index of \(indexed.count) tracks (\(tracks) songs, \(index - tracks) random) built in "
                + "\(Self.format(Date().timeIntervalSince(buildStart))) s")

        var times: [Double] = []
        for kind in ClipKind.allCases {
            var right = 0, wrong = 0, missed = 0
            for trial in 0..<clips {
                let song = Int.random(in: 0..<tracks, using: &rng)
                let offset = Double.random(in: 0...Double(Self.songSeconds - clipSeconds - 1), using: &rng)
                let clip = "\(folder)/clip-\(kind)-\(trial).wav"
                try await Self.cut(songs[song], at: offset, seconds: clipSeconds, kind: kind, into: clip, folder: folder)
                let print = try await FingerprintMeter.measure(path: clip)
                let matchStart = DispatchTime.now().uptimeNanoseconds
                let match = indexed.match(print)
                times.append(Double(DispatchTime.now().uptimeNanoseconds - matchStart) / 1e6)
                if let match, match.trackID == "song-\(song)", match.offsetMillis.map({ abs(Double($0) / 1000 - offset) <= 1 }) == true {
                    right += 1
                } else if match == nil {
                    missed += 1
                } else {
                    wrong += 1
                }
                try? FileManager.default.removeItem(atPath: clip)
            }
            print(
                "\(kind.rawValue): \(right)/\(clips) right (\(String(format: "%.1f", Double(right) * 100 / Double(clips))) %), "
                    + "\(wrong) wrong, \(missed) not found")
        }
        times.sort()
        print(
            "matching a \(clipSeconds) s clip against \(indexed.count) tracks: p50 \(Self.format(times[times.count / 2])) ms, "
                + "p99 \(Self.format(times[min(times.count - 1, times.count * 99 / 100)])) ms, max \(Self.format(times.last!)) ms")
    }

    enum ClipKind: String, CaseIterable {
        case clean, noisy
        case lowBitrate = "32 kbps"
    }

    static func cut(_ song: String, at offset: Double, seconds: Int, kind: ClipKind, into clip: String, folder: String) async throws {
        let start = String(format: "%.3f", offset)
        switch kind {
        case .clean:
            try await ffmpeg(["-ss", start, "-t", "\(seconds)", "-i", song, clip])
        case .noisy:
            // White noise a quarter of the music's level: about 12 dB below it.
            try await ffmpeg([
                "-ss", start, "-t", "\(seconds)", "-i", song, "-f", "lavfi", "-t", "\(seconds)", "-i",
                "anoisesrc=color=white:amplitude=0.08:seed=\(Int(offset * 1000))", "-filter_complex",
                "[0:a]aformat=channel_layouts=mono[m];[m][1:a]amix=inputs=2:normalize=0", clip,
            ])
        case .lowBitrate:
            let low = clip + ".mp3"
            try await ffmpeg(["-ss", start, "-t", "\(seconds)", "-i", song, "-ac", "1", "-ar", "22050", "-c:a", "libmp3lame", "-b:a", "32k", low])
            try await ffmpeg(["-i", low, clip])
            try? FileManager.default.removeItem(atPath: low)
        }
    }

    static func ffmpeg(_ arguments: [String]) async throws {
        let finished = try await ChildProcess.run(.name("ffmpeg"), ["-nostdin", "-v", "error", "-y"] + arguments)
        guard finished.status.isSuccess else { throw LibraryError.generationFailed("ffmpeg: \(finished.errorTail)") }
    }

    static func format(_ value: Double) -> String { String(format: value < 10 ? "%.2f" : "%.1f", value) }
}
