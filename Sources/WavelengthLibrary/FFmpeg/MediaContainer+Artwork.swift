import CFFmpeg

/// A picture embedded in an audio file.
struct EmbeddedPicture {
    var data: [UInt8]
    var mimeType: String
}

extension MediaContainer {
    /// Streams that carry embedded cover art: FFmpeg exposes ID3 APIC, FLAC PICTURE,
    /// MP4 `covr` and Vorbis METADATA_BLOCK_PICTURE as one-packet "attached picture" streams.
    var pictureStreams: [UnsafeMutablePointer<AVStream>] {
        streams.filter {
            $0.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0 && $0.pointee.attached_pic.size > 0
                && Self.mimeType(for: $0.pointee.codecpar.pointee.codec_id) != nil
        }
    }

    /// The front cover when the file says which picture that is, else the first picture.
    func coverPicture() -> EmbeddedPicture? {
        let candidates = pictureStreams
        let front = candidates.first { stream in
            guard let dictionary = stream.pointee.metadata,
                  let entry = av_dict_get(dictionary, "comment", nil, 0), let value = entry.pointee.value
            else { return false }
            return String(cString: value).lowercased().contains("front")
        }
        guard let stream = front ?? candidates.first,
              let mime = Self.mimeType(for: stream.pointee.codecpar.pointee.codec_id),
              let bytes = stream.pointee.attached_pic.data
        else { return nil }
        let data = Array(UnsafeBufferPointer(start: bytes, count: Int(stream.pointee.attached_pic.size)))
        return EmbeddedPicture(data: data, mimeType: mime)
    }

    private static func mimeType(for codec: AVCodecID) -> String? {
        switch codec {
        case AV_CODEC_ID_MJPEG: "image/jpeg"
        case AV_CODEC_ID_PNG: "image/png"
        case AV_CODEC_ID_GIF: "image/gif"
        case AV_CODEC_ID_WEBP: "image/webp"
        case AV_CODEC_ID_BMP: "image/bmp"
        default: nil
        }
    }
}
