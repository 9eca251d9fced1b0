import CFFmpeg

/// Keeps libav* quiet: a scan reports bad files itself, so FFmpeg's own complaints about
/// them would only be noise on the server's stderr.
enum FFmpegLogging {
    /// Evaluated once, thread-safely, the first time any file is opened.
    private static let silenced: Void = av_log_set_level(AV_LOG_QUIET)

    static func silence() {
        _ = silenced
    }
}
