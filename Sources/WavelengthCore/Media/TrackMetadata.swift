/// Everything the library knows about one audio file after reading it: its
/// tags (read through as `metadata.title`, …) and what the file itself is.
///
/// Text fields are never empty: missing tags are filled from the file and folder names
/// (see `PathFallbacks`), so the rest of the system never has to invent placeholders.
@dynamicMemberLookup
public struct TrackMetadata: Sendable, Equatable {
    public var tags: TrackTags
    public var isrc: String?
    public var musicBrainzRecordingID: String?
    /// The container format actually found in the file.
    public var format: AudioFormat
    /// FFmpeg's name for the audio codec (`avcodec_get_name`), e.g. "mp3", "vorbis", "aac".
    public var codec: String
    public var hasEmbeddedArt: Bool

    public init(
        title: String, artist: String, album: String, albumArtist: String,
        trackNumber: Int? = nil, discNumber: Int? = nil, year: Int? = nil, genre: String? = nil,
        durationMs: Int64, isrc: String? = nil, musicBrainzRecordingID: String? = nil,
        format: AudioFormat, codec: String, hasEmbeddedArt: Bool
    ) {
        tags = TrackTags(
            title: title, artist: artist, album: album, albumArtist: albumArtist, trackNumber: trackNumber,
            discNumber: discNumber, year: year, genre: genre, durationMs: durationMs)
        self.isrc = isrc
        self.musicBrainzRecordingID = musicBrainzRecordingID
        self.format = format
        self.codec = codec
        self.hasEmbeddedArt = hasEmbeddedArt
    }

    public subscript<T>(dynamicMember field: WritableKeyPath<TrackTags, T>) -> T {
        get { tags[keyPath: field] }
        set { tags[keyPath: field] = newValue }
    }
}

/// Flat, as the index's columns are: the tags' fields beside the file's.
extension TrackMetadata: Codable {
    private enum CodingKeys: String, CodingKey {
        case isrc, musicBrainzRecordingID, format, codec, hasEmbeddedArt
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        tags = try TrackTags(from: decoder)
        isrc = try c.decodeIfPresent(String.self, forKey: .isrc)
        musicBrainzRecordingID = try c.decodeIfPresent(String.self, forKey: .musicBrainzRecordingID)
        format = try c.decode(AudioFormat.self, forKey: .format)
        codec = try c.decode(String.self, forKey: .codec)
        hasEmbeddedArt = try c.decode(Bool.self, forKey: .hasEmbeddedArt)
    }

    public func encode(to encoder: any Encoder) throws {
        try tags.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(isrc, forKey: .isrc)
        try c.encodeIfPresent(musicBrainzRecordingID, forKey: .musicBrainzRecordingID)
        try c.encode(format, forKey: .format)
        try c.encode(codec, forKey: .codec)
        try c.encode(hasEmbeddedArt, forKey: .hasEmbeddedArt)
    }
}
