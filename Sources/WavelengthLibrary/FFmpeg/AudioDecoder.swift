import CFFmpeg

/// Decodes a file's first audio stream, frame by frame, with libavcodec:
/// the one decode the analysis feeds every meter from.
///
/// Non-copyable so the codec context is freed exactly once. Blocking: run it
/// on a dedicated thread, never on Swift's cooperative pool.
struct AudioDecoder: ~Copyable {
    private let container: MediaContainer
    private let stream: UnsafeMutablePointer<AVStream>
    private let codec: UnsafeMutablePointer<AVCodecContext>

    init(path: String) throws(LibraryError) {
        let container = try MediaContainer(path: path)
        guard let stream = container.audioStream,
            let decoder = avcodec_find_decoder(stream.pointee.codecpar.pointee.codec_id)
        else { throw .unreadable("no audio stream FFmpeg can decode") }
        var allocated = avcodec_alloc_context3(decoder)
        guard let codec = allocated else { throw .unreadable("FFmpeg could not allocate a decoder") }
        // One thread per file: the analysis runs files side by side instead,
        // which needs no synchronisation inside the decoder.
        codec.pointee.thread_count = 1
        let opened = avcodec_parameters_to_context(codec, stream.pointee.codecpar) >= 0
            ? avcodec_open2(codec, decoder, nil) : -1
        guard opened >= 0 else {
            avcodec_free_context(&allocated)
            throw .unreadable("FFmpeg cannot open the decoder (\(FFmpegError.message(opened)))")
        }
        self.container = container
        self.stream = stream
        self.codec = codec
    }

    deinit {
        var freeing: UnsafeMutablePointer<AVCodecContext>? = codec
        avcodec_free_context(&freeing)
    }

    /// Hands each decoded frame to `body` in order, until the file ends or
    /// `body` returns false. A corrupt packet is skipped, as players do; the
    /// decoder's buffered frames are drained at the end.
    func forEachFrame(_ body: (UnsafePointer<AVFrame>) throws -> Bool) throws {
        var packetBox: UnsafeMutablePointer<AVPacket>? = av_packet_alloc()
        var frameBox: UnsafeMutablePointer<AVFrame>? = av_frame_alloc()
        defer {
            av_packet_free(&packetBox)
            av_frame_free(&frameBox)
        }
        guard let packet = packetBox, let frame = frameBox else { throw LibraryError.unreadable("out of memory") }
        let again = wavelength_averror_again()
        let ended = wavelength_averror_eof()
        /// Passes on every frame the decoder has ready; false once `body` has had enough.
        func receive() throws -> Bool {
            while true {
                let status = avcodec_receive_frame(codec, frame)
                if status == again || status == ended { return true }
                guard status >= 0 else { throw LibraryError.unreadable("decoding failed (\(FFmpegError.message(status)))") }
                defer { av_frame_unref(frame) }
                if try !body(frame) { return false }
            }
        }
        while av_read_frame(container.context, packet) >= 0 {
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == stream.pointee.index else { continue }
            guard avcodec_send_packet(codec, packet) >= 0 else { continue }
            if try !receive() { return }
        }
        _ = avcodec_send_packet(codec, nil)
        _ = try receive()
    }
}
