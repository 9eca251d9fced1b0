/// Everything the library knows about one audio file after reading it.
///
/// Text fields are never empty: missing tags are filled from the file and folder names
/// (see `PathFallbacks`), so the rest of the system never has to invent placeholders.
public struct TrackMetadata: Sendable, Equatable, Codable {
    public var title: String
    public var artist: String
    public var album: String
    public var albumArtist: String
    public var trackNumber: Int?
    public var discNumber: Int?
    public var year: Int?
    public var genre: String?
    /// Exact length in milliseconds, from the container or stream header.
    public var durationMs: Int64
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
        self.title = title
        self.artist = artist
        self.album = album
        self.albumArtist = albumArtist
        self.trackNumber = trackNumber
        self.discNumber = discNumber
        self.year = year
        self.genre = genre
        self.durationMs = durationMs
        self.isrc = isrc
        self.musicBrainzRecordingID = musicBrainzRecordingID
        self.format = format
        self.codec = codec
        self.hasEmbeddedArt = hasEmbeddedArt
    }
}
