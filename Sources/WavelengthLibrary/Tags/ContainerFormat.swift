import CFFmpeg
import WavelengthCore

/// Maps what FFmpeg found in a file to the formats the server can stream.
enum ContainerFormat {
    static func audioFormat(container: String, codec: AVCodecID) throws(LibraryError) -> AudioFormat {
        switch container {
        case "mp3": return .mp3
        case "flac": return .flac
        case "ogg": return codec == AV_CODEC_ID_OPUS ? .opus : .ogg
        case "wav": return .wav
        case "aiff": return .aiff
        case let name where name.hasPrefix("mov,mp4"): return .m4a
        case "aac":
            throw .unreadable("it is a raw AAC (ADTS) stream; only AAC inside an .m4a container is supported")
        default:
            throw .unreadable("its container (\(container)) is not a supported audio format")
        }
    }
}
