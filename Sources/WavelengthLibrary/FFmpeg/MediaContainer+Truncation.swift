import CFFmpeg

extension MediaContainer {
    /// Why the file looks cut short, or nil when it looks whole.
    ///
    /// Headers of an interrupted download still promise the full length, so FFmpeg happily
    /// reports it. This compares what the headers promise with the bytes actually present,
    /// using only data that is already parsed (plus, for CBR mp3, a few packets), so it costs
    /// next to nothing. Formats without such data (FLAC without a seek index) pass unchecked;
    /// Ogg needs no check because its length comes from the last page actually present.
    func truncationProblem(stream: UnsafeMutablePointer<AVStream>, durationMs: Int64) -> String? {
        guard let size = fileSize, containerName != "ogg" else { return nil }

        // Every index entry (MP4 sample tables, FLAC/mp3 seek points) must lie inside the file.
        let entries = avformat_index_get_entries_count(stream)
        if entries > 0, let last = avformat_index_get_entry(stream, entries - 1), last.pointee.pos >= size {
            return "the file is truncated: its index points to byte \(last.pointee.pos) but it has only \(size) bytes"
        }

        guard let bitRate = payloadBitRate(of: stream), bitRate > 0 else { return nil }
        let expected = bitRate * durationMs / 8000
        // Tags and cover art only add bytes, so a whole file holds at least its audio payload.
        // The 10% margin absorbs rounding in stated bit rates.
        if Double(size) < Double(expected) * 0.9 {
            return "the file is truncated: it has \(size) bytes but its \(durationMs) ms of audio need about \(expected)"
        }
        return nil
    }

    /// Bits per second of the audio payload when the headers make it knowable.
    private func payloadBitRate(of stream: UnsafeMutablePointer<AVStream>) -> Int64? {
        let parameters = stream.pointee.codecpar.pointee
        if parameters.bit_rate > 0 { return parameters.bit_rate }
        // Constant-bit-rate mp3 with a LAME "Info" frame states the frame count but not the
        // bit rate; every frame has the same size, so the first few tell it.
        guard parameters.codec_id == AV_CODEC_ID_MP3, hasHeaderDuration(stream) else { return nil }
        return firstPacketBitRate(of: stream)
    }

    /// The lowest bit rate among the first few audio packets: exact for CBR, and for a VBR
    /// file that slipped through it errs low, so the check above cannot fire falsely.
    private func firstPacketBitRate(of stream: UnsafeMutablePointer<AVStream>) -> Int64? {
        var allocated: UnsafeMutablePointer<AVPacket>? = av_packet_alloc()
        defer { av_packet_free(&allocated) }
        guard let packet = allocated else { return nil }
        var lowest: Int64?
        var audioPackets = 0
        // Queued cover-art packets come first; a dozen reads always reach the audio.
        for _ in 0..<12 where audioPackets < 4 {
            guard av_read_frame(context, packet) >= 0 else { break }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == stream.pointee.index else { continue }
            audioPackets += 1
            let micros = av_rescale_q(packet.pointee.duration, stream.pointee.time_base, AVRational(num: 1, den: 1_000_000))
            guard micros > 0, packet.pointee.size > 0 else { continue }
            let rate = Int64(packet.pointee.size) * 8 * 1_000_000 / micros
            lowest = min(lowest ?? rate, rate)
        }
        return lowest
    }
}
