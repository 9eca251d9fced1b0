import Foundation
import WavelengthCore
import WavelengthLibrary

/// Voice clips' audio on disk: each upload checked and made ready with real
/// FFmpeg, then kept as one MP3 per clip in the data folder (0700, files
/// 0600: another user on the host hears nothing).
///
/// FFmpeg is the costly part, so uploads take turns in a few slots, fairly
/// between people; a crowd waiting is refused at once (429).
struct ClipStore: Sendable {
    let folder: String
    private let slots = FairSlots(
        slots: 2, maxWaitingPerClient: 1, maxWaiting: 8,
        busy: "The server is busy with other voice clips; try again in a few seconds.", retryAfterSeconds: 5)

    init(folder: String) {
        self.folder = folder
    }

    /// What an upload became: a file ready to keep, and its length.
    struct Prepared: Sendable {
        var path: String
        var durationMs: Int64
        var bytes: Int
    }

    /// Where clip `id`'s audio is kept.
    func path(for id: String) -> String {
        // Ids are made by the server ("v" + 16 hex digits); anything else
        // names no file.
        guard id.count == 17, id.first == "v", id.dropFirst().allSatisfy(\.isHexDigit) else {
            return folder + "/missing"
        }
        return folder + "/\(id).mp3"
    }

    /// Checks an upload and makes it ready: FFmpeg must decode it as audio
    /// (a renamed file, a zip or garbage is refused), it must last 0.5 to
    /// 30 s, and it is brought to `loudnessTarget` LUFS (EBU R128, as the
    /// station's tracks are) as mono 96 kbps MP3 that every player and the
    /// stream read.
    func prepare(_ upload: Data, loudnessTarget: Double, client: String) async throws -> Prepared {
        try await slots.run(for: client) { [folder] in
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let stem = folder + "/upload-\(UUID().uuidString)"
            guard
                FileManager.default.createFile(
                    atPath: stem + ".in", contents: upload, attributes: [.posixPermissions: 0o600])
            else {
                throw APIError(.internalServerError, code: .internal, "Could not keep the clip to check it.")
            }
            defer {
                try? FileManager.default.removeItem(atPath: stem + ".in")
                try? FileManager.default.removeItem(atPath: stem + ".pcm")
            }
            // The length, from the decoded audio itself: a browser's WebM
            // recording carries no duration in its header. 1 kHz mono s16 is
            // two bytes a millisecond; a little past the limit is enough.
            let measured = try await ChildProcess.run(
                .name("ffmpeg"),
                [
                    "-nostdin", "-v", "error", "-y", "-i", stem + ".in", "-map", "0:a:0", "-vn",
                    "-t", String(Double(ClipLimits.maxDurationMs) / 1000 + 2), "-ac", "1", "-ar", "1000",
                    "-f", "s16le", stem + ".pcm",
                ])
            let pcm = (try? FileManager.default.attributesOfItem(atPath: stem + ".pcm")[.size] as? NSNumber)?.intValue ?? 0
            guard measured.status.isSuccess, pcm > 0 else {
                throw APIError.badRequest("That is not audio the server can read.", code: .badAudio)
            }
            let durationMs = Int64(pcm / 2)
            guard durationMs <= ClipLimits.maxDurationMs else {
                throw APIError.badRequest("A voice clip is at most 30 seconds.", code: .tooLong)
            }
            guard durationMs >= ClipLimits.minDurationMs else {
                throw APIError.badRequest("The clip is too short: record at least half a second.", code: .badAudio)
            }
            let output = stem + ".mp3"
            let encoded = try await ChildProcess.run(
                .name("ffmpeg"),
                [
                    "-nostdin", "-v", "error", "-y", "-i", stem + ".in", "-map", "0:a:0", "-vn",
                    "-af", String(format: "loudnorm=I=%.1f:TP=-1.5:LRA=11", loudnessTarget),
                    "-ar", "44100", "-ac", "1", "-c:a", "libmp3lame", "-b:a", "96k", output,
                ])
            guard encoded.status.isSuccess,
                let bytes = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? NSNumber)?.intValue,
                bytes > 0
            else {
                try? FileManager.default.removeItem(atPath: output)
                throw APIError.badRequest("That is not audio the server can read.", code: .badAudio)
            }
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: output)
            return Prepared(path: output, durationMs: durationMs, bytes: bytes)
        }
    }

    /// Moves a prepared file to clip `id`'s place.
    func keep(_ prepared: Prepared, as id: String) throws {
        try FileManager.default.moveItem(atPath: prepared.path, toPath: path(for: id))
    }

    /// Throws away a prepared file that was not kept.
    func discard(_ prepared: Prepared) {
        try? FileManager.default.removeItem(atPath: prepared.path)
    }

    func remove(_ id: String) {
        try? FileManager.default.removeItem(atPath: path(for: id))
    }
}
