/// Errors the library module throws. Scans never throw these for single files:
/// they turn into `ScanFailure`s in the report instead.
public enum LibraryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be read as audio; the text says why, for people.
    case unreadable(String)
    /// The `ffmpeg` command line tool is not on `PATH` (needed only to generate music).
    case ffmpegMissing
    /// An `ffmpeg` run that generates music failed; the text carries its error output.
    case generationFailed(String)

    public var description: String {
        switch self {
        case .unreadable(let reason): "unreadable audio file: \(reason)"
        case .ffmpegMissing: "the ffmpeg command was not found on PATH"
        case .generationFailed(let reason): "generating audio with ffmpeg failed: \(reason)"
        }
    }
}
