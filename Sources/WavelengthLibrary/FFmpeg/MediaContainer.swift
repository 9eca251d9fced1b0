import CFFmpeg

/// One file opened with libavformat's demuxer.
///
/// Non-copyable so the `AVFormatContext` is closed exactly once, when the value goes away.
/// Only `avformat_open_input` runs up front: it parses the headers and tags, which is all the
/// library needs, and is many times cheaper than `avformat_find_stream_info`.
struct MediaContainer: ~Copyable {
    let context: UnsafeMutablePointer<AVFormatContext>
    /// The first real audio stream (cover art is a video stream and never matches).
    /// Found once: every tag lookup consults it.
    let audioStream: UnsafeMutablePointer<AVStream>?

    init(path: String) throws(LibraryError) {
        FFmpegLogging.silence()
        var opened: UnsafeMutablePointer<AVFormatContext>?
        let status = avformat_open_input(&opened, path, nil, nil)
        guard status >= 0, let opened else {
            throw .unreadable("FFmpeg cannot open it as audio (\(FFmpegError.message(status)))")
        }
        context = opened
        audioStream = Self.streams(of: opened).first { $0.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO }
    }

    deinit {
        var closing: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&closing)
    }

    /// The demuxer's short name, e.g. "mp3", "ogg", "mov,mp4,m4a,3gp,3g2,mj2".
    var containerName: String {
        guard let format = context.pointee.iformat else { return "" }
        return String(cString: format.pointee.name)
    }

    /// The streams, in file order.
    var streams: [UnsafeMutablePointer<AVStream>] {
        Self.streams(of: context)
    }

    private static func streams(of context: UnsafeMutablePointer<AVFormatContext>) -> [UnsafeMutablePointer<AVStream>] {
        guard let list = context.pointee.streams else { return [] }
        return (0..<Int(context.pointee.nb_streams)).compactMap { list[$0] }
    }

    /// The file's size in bytes as FFmpeg sees it, or nil when unknown.
    var fileSize: Int64? {
        guard let io = context.pointee.pb else { return nil }
        let size = avio_size(io)
        return size >= 0 ? size : nil
    }

    /// Runs the slow full probe; only for files whose headers do not state a duration.
    func probeStreams() {
        _ = avformat_find_stream_info(context, nil)
    }

    /// The first value stored under any of `keys`, looking in the file-level tags and then
    /// the audio stream's (Ogg keeps Vorbis comments on the stream). Lookups are exact but
    /// case-insensitive (no `AV_DICT_MATCH_CASE`, no `AV_DICT_IGNORE_SUFFIX`).
    func tag(_ keys: [String]) -> String? {
        let dictionaries = [context.pointee.metadata, audioStream?.pointee.metadata]
        for key in keys {
            for dictionary in dictionaries {
                guard let dictionary, let entry = av_dict_get(dictionary, key, nil, 0),
                      let raw = entry.pointee.value
                else { continue }
                let value = String(cString: raw).trimmingWhitespace
                if !value.isEmpty { return value }
            }
        }
        return nil
    }
}

extension String {
    /// Tag values often carry stray spaces or NULs from old taggers.
    var trimmingWhitespace: String {
        let isJunk: (Character) -> Bool = { $0.isWhitespace || $0 == "\0" }
        guard let first = firstIndex(where: { !isJunk($0) }),
              let last = lastIndex(where: { !isJunk($0) })
        else { return "" }
        return String(self[first...last])
    }
}
