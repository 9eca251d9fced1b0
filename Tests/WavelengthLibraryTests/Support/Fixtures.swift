import Foundation
@testable import WavelengthLibrary

/// Audio files made with the ffmpeg command line, so tests read what real encoders write.
enum Fixtures {
    static let seconds = 2.5

    /// How each format's fixture is encoded and what reading it must report.
    struct Recipe: Sendable {
        var fileExtension: String
        var codecArguments: [String]
        var expectedCodec: String
        /// RIFF INFO (WAV) has no album-artist or disc field.
        var storesAlbumArtistAndDisc = true
        /// mp3 keeps up to one frame of encoder padding at the end that FFmpeg does not expose.
        var durationToleranceMs: Int64 = 5
    }

    static func recipe(_ format: AudioFormat) -> Recipe {
        switch format {
        case .mp3:
            Recipe(fileExtension: "mp3", codecArguments: ["-c:a", "libmp3lame", "-id3v2_version", "3"],
                   expectedCodec: "mp3", durationToleranceMs: 30)
        case .flac: Recipe(fileExtension: "flac", codecArguments: ["-c:a", "flac"], expectedCodec: "flac")
        case .ogg: Recipe(fileExtension: "ogg", codecArguments: ["-c:a", "libvorbis"], expectedCodec: "vorbis")
        case .opus: Recipe(fileExtension: "opus", codecArguments: ["-c:a", "libopus"], expectedCodec: "opus")
        case .m4a: Recipe(fileExtension: "m4a", codecArguments: ["-c:a", "aac"], expectedCodec: "aac")
        case .wav:
            Recipe(fileExtension: "wav", codecArguments: ["-c:a", "pcm_s16le"], expectedCodec: "pcm_s16le",
                   storesAlbumArtistAndDisc: false)
        case .aiff:
            Recipe(fileExtension: "aiff", codecArguments: ["-c:a", "pcm_s16be", "-write_id3v2", "1"],
                   expectedCodec: "pcm_s16be")
        }
    }

    /// Encodes a sine tone of `seconds` to `path` with `tags`, optionally embedding `cover`
    /// (an image file, copied byte for byte as the attached picture).
    static func encode(
        _ format: AudioFormat, to path: String, seconds: Double = seconds, frequency: Int = 440,
        tags: KeyValuePairs<String, String> = [:], cover: String? = nil, extraArguments: [String] = []
    ) async throws {
        var arguments = ["-f", "lavfi", "-i", "sine=frequency=\(frequency):duration=\(seconds)"]
        if let cover {
            arguments += ["-i", cover, "-map", "0:a", "-map", "1:v", "-c:v", "copy", "-disposition:v", "attached_pic"]
        }
        arguments += recipe(format).codecArguments + extraArguments
        // Without tags of our own, keep ffmpeg from adding anything but its encoder name.
        arguments += tags.isEmpty ? ["-map_metadata", "-1"] : tags.flatMap { ["-metadata", "\($0.key)=\($0.value)"] }
        try await FFmpegCommand.locate().run(arguments + [path])
    }

    /// A small generated picture: `.jpg` → JPEG, `.png` → PNG.
    static func image(at path: String, color: String = "orange") async throws {
        try await FFmpegCommand.locate().run(["-f", "lavfi", "-i", "color=c=\(color):s=64x64:d=1", "-frames:v", "1", path])
    }

    /// Deterministic noise, so a "corrupt file" test cannot pass or fail by luck.
    static func noise(count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> Data {
        var state = seed
        var bytes = [UInt8](repeating: 0, count: count)
        for index in bytes.indices {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            bytes[index] = UInt8(truncatingIfNeeded: state)
        }
        return Data(bytes)
    }
}
