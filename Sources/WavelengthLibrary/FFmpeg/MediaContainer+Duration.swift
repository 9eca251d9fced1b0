import CFFmpeg

extension MediaContainer {
    /// The playable length of `stream` in milliseconds, or nil when nothing states it.
    ///
    /// Header values are used when present (Xing/LAME frame counts, FLAC STREAMINFO, the
    /// last Ogg granule, MP4 `mdhd`, WAV/AIFF data size). Only when none exists does this
    /// fall back to `avformat_find_stream_info`, which reads and parses packets.
    func durationMs(of stream: UnsafeMutablePointer<AVStream>) -> Int64? {
        if let stated = headerDurationMs(of: stream) { return stated }
        if let overall = containerDurationMs { return overall }
        probeStreams()
        return headerDurationMs(of: stream) ?? containerDurationMs
    }

    /// Whether the demuxer found a duration in the headers without probing.
    func hasHeaderDuration(_ stream: UnsafeMutablePointer<AVStream>) -> Bool {
        headerDurationMs(of: stream) != nil
    }

    private func headerDurationMs(of stream: UnsafeMutablePointer<AVStream>) -> Int64? {
        var ticks = stream.pointee.duration
        guard ticks != noTimestamp, ticks > 0 else { return nil }
        let codecID = stream.pointee.codecpar.pointee.codec_id
        if codecID == AV_CODEC_ID_MP3, stream.pointee.start_time != noTimestamp, stream.pointee.start_time > 0 {
            // The mp3 demuxer counts every frame, including the encoder and decoder delay that
            // the LAME header declares; it exposes that delay as the start time and skips it
            // when playing, so it is not part of the music.
            ticks -= stream.pointee.start_time
        } else if codecID == AV_CODEC_ID_OPUS, containerName == "ogg" {
            // Ogg Opus granules include the pre-skip, which decoders discard (RFC 7845 §4.2).
            let preSkip = Int64(stream.pointee.codecpar.pointee.initial_padding)
            ticks -= av_rescale_q(preSkip, AVRational(num: 1, den: 48_000), stream.pointee.time_base)
        }
        guard ticks > 0 else { return nil }
        return av_rescale_q(ticks, stream.pointee.time_base, AVRational(num: 1, den: 1000))
    }

    private var containerDurationMs: Int64? {
        let duration = context.pointee.duration
        guard duration != noTimestamp, duration > 0 else { return nil }
        return av_rescale_q(duration, AVRational(num: 1, den: AV_TIME_BASE), AVRational(num: 1, den: 1000))
    }
}

/// `AV_NOPTS_VALUE`, which Swift cannot import because it is a casting macro.
let noTimestamp = Int64.min
