/// What a track's tags say of it: the fields the library's reading of a
/// file (`TrackMetadata`), its row in the index (`TrackRecord`) and what
/// clients see (`TrackSummary`) all carry. One shape, held by each of them
/// and flattened into theirs when encoded, so the JSON and the database
/// columns stay as they were.
public struct TrackTags: Sendable, Equatable, Codable {
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

    public init(
        title: String, artist: String, album: String, albumArtist: String, trackNumber: Int? = nil,
        discNumber: Int? = nil, year: Int? = nil, genre: String? = nil, durationMs: Int64
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
    }
}
