import Foundation
import Testing
import WavelengthCore
import WavelengthTestSupport
@testable import WavelengthLibrary

/// The one-decode analysis (`TrackAnalyzer`) reads what the separate
/// measurements read before: loudness as FFmpeg's `ebur128` filter reports
/// it, tempo as a generated click track sets it, and a fingerprint that
/// "what's this song?" still finds among the old ones.
@Suite("One-decode analysis")
struct OneDecodeAnalysisTests {
    /// Generated audio in a few shapes the library meets: mono and stereo,
    /// 44.1 and 48 kHz, mp3 and FLAC, a steady tone and noise.
    private static let signals: [(name: String, source: String, codec: [String])] = [
        ("tone-mono.mp3", "sine=frequency=1000:sample_rate=44100:duration=12,volume=-6dB", ["-c:a", "libmp3lame"]),
        ("noise-stereo.flac", "anoisesrc=color=pink:sample_rate=48000:duration=12:amplitude=0.3,aformat=channel_layouts=stereo",
         ["-c:a", "flac"]),
        ("chord-stereo.mp3",
         "aevalsrc=exprs='0.3*sin(2*PI*220*t)*exp(-3*mod(t\\,0.5))|0.2*sin(2*PI*330*t)':s=44100:d=12",
         ["-c:a", "libmp3lame"]),
    ]

    @Test(arguments: signals.map(\.name))
    func loudnessAgreesWithFFmpegsFilter(name: String) async throws {
        let folder = try TemporaryDirectory()
        let signal = try #require(Self.signals.first { $0.name == name })
        let path = try folder.file(name)
        try await FFmpegCommand.locate().run(["-f", "lavfi", "-i", signal.source] + signal.codec + ["-map_metadata", "-1", path])
        let reference = try await FFmpegLoudnessReference.measure(path: path)
        let reading = try #require(try await TrackAnalyzer.measure(path: path).loudness?.get())
        // FFmpeg prints tenths: within 0.1 LU of the rounded figure.
        #expect(abs(reading.integrated - reference.integrated) <= 0.1, "libebur128 \(reading), ffmpeg \(reference)")
        #expect(abs(reading.range - reference.range) <= 0.1, "libebur128 \(reading), ffmpeg \(reference)")
        // Both oversample for the true peak, at different rates (libebur128
        // 4× the file's, ffmpeg 192 kHz): close, not identical.
        #expect(abs(reading.truePeak - reference.truePeak) <= 0.3, "libebur128 \(reading), ffmpeg \(reference)")
    }

    @Test(arguments: [96.0, 120.0])
    func oneDecodeFeedsEveryMeterWithTheOldReadings(bpm: Double) async throws {
        let folder = try TemporaryDirectory()
        let path = try folder.file("clicks.mp3")
        let period = 60 / bpm
        try await FFmpegCommand.locate().run(
            ["-f", "lavfi", "-i",
             "aevalsrc=exprs='if(lt(mod(t\\,\(period))\\,0.03)\\,0.8*sin(2*PI*1000*t)\\,0)':s=44100:d=30",
             "-ac", "2", "-c:a", "libmp3lame", "-map_metadata", "-1", path])
        let analysis = try await TrackAnalyzer.measure(path: path)
        let rhythm = try #require(try analysis.rhythm?.get())
        let tempo = try #require(rhythm.tempo, "no tempo in \(rhythm)")
        // aubio reads clicks a little fast (97.2 for 96), as it always has.
        #expect(abs(tempo - bpm) < 3, "measured \(rhythm)")
        // Within 1 BPM of what aubio's own source read before, decoding the file again.
        let old = try #require(AubioSourceReference.rhythm(path: path))
        #expect(abs(tempo - (old.tempo ?? 0)) <= 1, "new \(rhythm), old \(old)")
        #expect(abs(rhythm.onsetRate - old.onsetRate) <= 0.1, "new \(rhythm), old \(old)")
        // The fingerprint is found in an index of the old ones.
        let print = try #require(try analysis.fingerprint?.get())
        let oldPrint = try #require(AubioSourceReference.fingerprint(path: path))
        #expect(FingerprintIndex([("clicks", oldPrint)]).match(print)?.trackID == "clicks")
        #expect(try analysis.loudness?.get() != nil)
    }

    @Test func aClipFromTheMiddleIsFoundByTheWholeTracksFingerprint() async throws {
        let folder = try TemporaryDirectory()
        let song = try folder.file("song.mp3")
        let clip = try folder.file("clip.mp3")
        let ffmpeg = try FFmpegCommand.locate()
        try await ffmpeg.run(
            ["-f", "lavfi", "-i",
             "aevalsrc=exprs='0.4*sin(2*PI*(220+110*floor(mod(t\\,4)))*t)*exp(-4*mod(t\\,0.25))':s=44100:d=40",
             "-c:a", "libmp3lame", "-map_metadata", "-1", song])
        try await ffmpeg.run(["-ss", "17", "-t", "12", "-i", song, "-c:a", "libmp3lame", clip])
        let whole = try #require(try await TrackAnalyzer.measure(path: song).fingerprint?.get())
        let match = FingerprintIndex([("song", whole)]).match(try await FingerprintMeter.measure(path: clip, seconds: 30))
        // (Not where: the song repeats every 4 s.)
        #expect(match?.trackID == "song")
    }

    @Test func aFileThatIsntAudioFailsEveryMeterWithItsOwnFailure() async throws {
        let folder = try TemporaryDirectory()
        let path = try folder.file("junk.mp3")
        try Fixtures.noise(count: 4096).write(to: URL(fileURLWithPath: path))
        let analysis = try await TrackAnalyzer.measure(path: path)
        #expect(throws: LoudnessMeter.Failure.self) { try analysis.loudness?.get() }
        #expect(throws: RhythmMeter.Failure.self) { try analysis.rhythm?.get() }
        #expect(throws: FingerprintMeter.Failure.self) { try analysis.fingerprint?.get() }
    }

    @Test func cancellingStopsTheDecode() async throws {
        let folder = try TemporaryDirectory()
        let path = try folder.file("long.mp3")
        try await FFmpegCommand.locate().run(
            ["-f", "lavfi", "-i", "sine=frequency=440:duration=600", "-c:a", "libmp3lame", "-b:a", "32k", path])
        let measuring = Task { try await TrackAnalyzer.measure(path: path) }
        measuring.cancel()
        await #expect(throws: CancellationError.self) { try await measuring.value }
    }
}
