/// The audio container formats the library indexes and the server streams.
///
/// The format is decided by what FFmpeg finds inside the file, not by its extension:
/// the extension only decides which files are worth opening during a scan.
public enum AudioFormat: String, Sendable, Codable, CaseIterable {
    case mp3, flac, ogg, opus, m4a, wav, aiff

    /// The `Content-Type` the server sends when streaming a file of this format.
    public var contentType: String {
        switch self {
        case .mp3: "audio/mpeg"
        case .flac: "audio/flac"
        case .ogg: "audio/ogg"
        // Opus lives in an Ogg container; naming the codec lets browsers decide up front.
        case .opus: "audio/ogg; codecs=opus"
        case .m4a: "audio/mp4"
        case .wav: "audio/wav"
        case .aiff: "audio/aiff"
        }
    }

    /// Whether current browsers play this format in an `<audio>` element.
    /// AIFF is the one Chrome and Firefox refuse; the server transcodes it.
    public var isBrowserPlayable: Bool {
        self != .aiff
    }

    /// The format a file name's extension suggests (case-insensitive, without the dot).
    ///
    /// `.aac` is accepted because some tools name MP4-contained AAC that way; the tag
    /// reader then insists on an MP4 container and rejects raw ADTS streams.
    public static func forFileExtension(_ ext: String) -> AudioFormat? {
        switch ext.lowercased() {
        case "mp3": .mp3
        case "flac": .flac
        case "ogg", "oga": .ogg
        case "opus": .opus
        case "m4a", "mp4", "aac": .m4a
        case "wav": .wav
        case "aif", "aiff": .aiff
        default: nil
        }
    }

    /// The format of a file name, judged by the text after its last dot.
    public static func forFileName(_ name: String) -> AudioFormat? {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        return forFileExtension(String(name[name.index(after: dot)...]))
    }
}
