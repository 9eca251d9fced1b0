import CFFmpeg

/// Converts decoded frames to the packed samples one meter wants (its rate,
/// mono or the file's own channels, float or 16-bit) with libswresample.
///
/// Built from the first frame, since only decoded frames say for sure what
/// the decoder puts out. A class that frees the context and the buffer
/// once; it belongs to one meter on one analysis thread and is never shared.
final class AudioResampler {
    /// What a meter is fed.
    struct Output: Equatable {
        enum Channels: Equatable {
            /// The mean of every channel, as aubio's own source mixed down
            /// (so the meters hear what they heard before).
            case mono
            /// The file's channels, interleaved, as the loudness meter needs.
            case asDecoded
        }

        /// Nil keeps the file's rate.
        var rate: Int32?
        var channels: Channels
        var format: AVSampleFormat
    }

    private let context: OpaquePointer
    private let inputFormat: Int32
    private let inputRate: Int32
    private let inputChannels: Int32
    let outputRate: Int32
    let outputChannels: Int32
    private let bytesPerSample: Int
    private var buffer: UnsafeMutableRawPointer
    private var capacityFrames: Int

    init(output: Output, firstFrame frame: UnsafePointer<AVFrame>) throws(LibraryError) {
        var inputLayout = AVChannelLayout()
        if frame.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC || frame.pointee.ch_layout.nb_channels == 0 {
            av_channel_layout_default(&inputLayout, max(1, frame.pointee.ch_layout.nb_channels))
        } else {
            guard av_channel_layout_copy(&inputLayout, &UnsafeMutablePointer(mutating: frame).pointee.ch_layout) >= 0 else {
                throw .unreadable("unusable channel layout")
            }
        }
        defer { av_channel_layout_uninit(&inputLayout) }
        var outputLayout = AVChannelLayout()
        switch output.channels {
        case .mono: av_channel_layout_default(&outputLayout, 1)
        case .asDecoded: _ = av_channel_layout_copy(&outputLayout, &inputLayout)
        }
        defer { av_channel_layout_uninit(&outputLayout) }
        let outputRate = output.rate ?? frame.pointee.sample_rate
        var allocated: OpaquePointer?
        var status = swr_alloc_set_opts2(
            &allocated, &outputLayout, output.format, outputRate,
            &inputLayout, AVSampleFormat(frame.pointee.format), frame.pointee.sample_rate, 0, nil)
        guard status >= 0, let context = allocated else {
            throw .unreadable("cannot resample the audio (\(FFmpegError.message(status)))")
        }
        let channels = inputLayout.nb_channels
        if output.channels == .mono && channels > 1 {
            // libswresample's own downmix weighs channels by their position
            // and can sum above full scale; the plain mean never clips.
            let matrix = [Double](repeating: 1 / Double(channels), count: Int(channels))
            status = swr_set_matrix(context, matrix, channels)
        }
        if status >= 0, outputRate < frame.pointee.sample_rate {
            // Taking the rate down for the detectors (rhythm, fingerprint):
            // a 16-tap filter, as Chromaprint's own resampler uses, not
            // libswresample's 32 made for listening. Half the conversion's
            // work; on the bench library (`wavelength-bench analysis
            // --compare`) every tempo read the same and one onset rate moved
            // from 2.77 to 2.75 a second.
            status = av_opt_set_int(UnsafeMutableRawPointer(context), "filter_size", 16, 0)
        }
        if status >= 0 { status = swr_init(context) }
        guard status >= 0 else {
            var freeing: OpaquePointer? = context
            swr_free(&freeing)
            throw .unreadable("cannot resample the audio (\(FFmpegError.message(status)))")
        }
        self.context = context
        inputFormat = frame.pointee.format
        inputRate = frame.pointee.sample_rate
        inputChannels = channels
        self.outputRate = outputRate
        outputChannels = outputLayout.nb_channels
        bytesPerSample = Int(av_get_bytes_per_sample(output.format))
        capacityFrames = 8_192
        buffer = .allocate(byteCount: capacityFrames * bytesPerSample * Int(outputChannels), alignment: 16)
    }

    deinit {
        var freeing: OpaquePointer? = context
        swr_free(&freeing)
        buffer.deallocate()
    }

    /// Whether `frame` is in the format this resampler was built for (a
    /// stream may change mid-file; the analysis then stops at the change).
    func accepts(_ frame: UnsafePointer<AVFrame>) -> Bool {
        frame.pointee.format == inputFormat && frame.pointee.sample_rate == inputRate
            && frame.pointee.ch_layout.nb_channels == inputChannels
    }

    /// Converts `frame` (nil flushes what the resampler holds back) and
    /// passes the packed result to `body`: `frames` frames of
    /// `outputChannels` samples at `samples`. Valid only during `body`.
    func convert(
        _ frame: UnsafePointer<AVFrame>?, _ body: (_ samples: UnsafeRawPointer, _ frames: Int) throws -> Void
    ) throws {
        let inputFrames = frame.map { Int($0.pointee.nb_samples) } ?? 0
        let most = Int(swr_get_out_samples(context, Int32(inputFrames)))
        if most > capacityFrames {
            buffer.deallocate()
            capacityFrames = most
            buffer = .allocate(byteCount: capacityFrames * bytesPerSample * Int(outputChannels), alignment: 16)
        }
        var output: UnsafeMutablePointer<UInt8>? = buffer.assumingMemoryBound(to: UInt8.self)
        let converted: Int32
        if let frame {
            converted = frame.pointee.extended_data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 1) {
                swr_convert(context, &output, Int32(capacityFrames), $0, Int32(inputFrames))
            }
        } else {
            converted = swr_convert(context, &output, Int32(capacityFrames), nil, 0)
        }
        guard converted >= 0 else { throw LibraryError.unreadable("resampling failed (\(FFmpegError.message(converted)))") }
        if converted > 0 { try body(UnsafeRawPointer(buffer), Int(converted)) }
    }
}
