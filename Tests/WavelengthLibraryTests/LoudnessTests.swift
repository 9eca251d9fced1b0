import Foundation
import Testing
import WavelengthCore
@testable import WavelengthLibrary

/// Loudness measured by libebur128 from the one decode on real encoded files, and
/// the gain rule that brings every track to the station's target.
@Suite("Loudness")
struct LoudnessTests {
    @Test func theSummaryIsReadAndSilenceIsNot() {
        let summary = """
            [Parsed_ebur128_0 @ 0x5] Summary:

              Integrated loudness:
                I:         -12.4 LUFS
                Threshold: -22.5 LUFS

              Loudness range:
                LRA:         0.7 LU
                Threshold: -32.4 LUFS

              True peak:
                Peak:       -2.4 dBFS
            """
        #expect(
            LoudnessReading.parse(ebur128Output: "noise before " + summary)
                == LoudnessReading(integrated: -12.4, range: 0.7, truePeak: -2.4))
        let silent = summary.replacingOccurrences(of: "-12.4", with: "-70.0")
        #expect(LoudnessReading.parse(ebur128Output: silent) == nil)
        #expect(LoudnessReading.parse(ebur128Output: "no summary at all") == nil)
        let noPeak = summary.replacingOccurrences(of: "-2.4 dBFS", with: "-inf dBFS")
        #expect(LoudnessReading.parse(ebur128Output: noPeak)?.truePeak == 0)
    }

    @Test func aQuieterFileMeasuresQuieterByWhatWasTakenOff() async throws {
        let folder = try TemporaryDirectory()
        var readings: [LoudnessReading] = []
        for (name, volume) in [("loud", "-4dB"), ("quiet", "-20dB")] {
            let path = try folder.file("\(name).mp3")
            try await FFmpegCommand.locate().run(
                ["-f", "lavfi", "-i", "sine=frequency=1000:duration=4", "-af", "volume=\(volume)", "-c:a", "libmp3lame",
                 "-map_metadata", "-1", path])
            readings.append(try await LoudnessMeter.measure(path: path))
        }
        let difference = readings[0].integrated - readings[1].integrated
        #expect(abs(difference - 16) < 0.5, "measured \(readings)")
        #expect(readings[0].truePeak > readings[1].truePeak)
        // The quiet one is boosted, the loud one cut, to one loudness.
        let gains = readings.map { Loudness.gainDb(integrated: $0.integrated, truePeak: $0.truePeak) }
        #expect(gains[1] > gains[0])
    }

    @Test func aFileThatIsntAudioCantBeMeasured() async throws {
        let folder = try TemporaryDirectory()
        let path = try folder.file("junk.mp3")
        try Fixtures.noise(count: 4096).write(to: URL(fileURLWithPath: path))
        await #expect(throws: LoudnessMeter.Failure.self) { try await LoudnessMeter.measure(path: path) }
    }
}
