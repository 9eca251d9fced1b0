/// An artist of the library, with how much of them it holds: what storage
/// counts and what clients are sent.
public struct ArtistSummary: Sendable, Codable, Equatable {
    public var name: String
    public var albumCount: Int
    public var trackCount: Int

    public init(name: String, albumCount: Int, trackCount: Int) {
        self.name = name
        self.albumCount = albumCount
        self.trackCount = trackCount
    }
}

/// An album of the library. Storage finds `artworkTrackID`, a track of the
/// album with artwork; the server turns it into `artworkURL`, which is all
/// clients are sent.
public struct AlbumSummary: Sendable, Codable, Equatable {
    public var title: String
    public var artist: String
    public var year: Int?
    public var trackCount: Int
    public var artworkURL: String?
    public var artworkTrackID: TrackID?

    private enum CodingKeys: String, CodingKey {
        case title, artist, year, trackCount, artworkURL
    }

    public init(
        title: String, artist: String, year: Int?, trackCount: Int, artworkURL: String? = nil, artworkTrackID: TrackID? = nil
    ) {
        self.title = title
        self.artist = artist
        self.year = year
        self.trackCount = trackCount
        self.artworkURL = artworkURL
        self.artworkTrackID = artworkTrackID
    }
}
