import WavelengthLibrary

/// A row of the library index: one audio file and what its tags say.
public struct TrackRecord: Sendable, Equatable, Codable {
    public var id: String
    public var path: String
    public var size: Int64
    public var mtimeNs: Int64
    public var fingerprint: String
    public var title: String
    public var artist: String
    public var album: String
    public var albumArtist: String
    public var trackNumber: Int?
    public var discNumber: Int?
    public var year: Int?
    public var genre: String?
    public var durationMs: Int64
    public var isrc: String?
    public var musicBrainzRecordingID: String?
    public var format: String
    public var codec: String
    public var hasEmbeddedArt: Bool
    public var artworkPath: String?
    public var lyricsPath: String?
    public var addedAt: Int64
    /// EBU R128 integrated loudness (LUFS), loudness range (LU) and true
    /// peak (dBTP), once the background analysis measured the file.
    public var loudness: Double?
    public var loudnessRange: Double?
    public var truePeak: Double?
    /// aubio's tempo (BPM, nil without a steady beat) and onsets per second,
    /// from the same analysis.
    public var tempo: Double?
    public var onsetRate: Double?
    /// When the analysis looked at the file (also when it couldn't measure it).
    public var analyzedAt: Int64?

    public init(id: String, file: ScannedFile, addedAt: Int64) {
        let m = file.metadata
        self.id = id
        self.path = file.path
        self.size = file.stamp.size
        self.mtimeNs = file.stamp.mtimeNs
        self.fingerprint = file.fingerprint
        self.title = m.title
        self.artist = m.artist
        self.album = m.album
        self.albumArtist = m.albumArtist
        self.trackNumber = m.trackNumber
        self.discNumber = m.discNumber
        self.year = m.year
        self.genre = m.genre
        self.durationMs = m.durationMs
        self.isrc = m.isrc
        self.musicBrainzRecordingID = m.musicBrainzRecordingID
        self.format = m.format.rawValue
        self.codec = m.codec
        self.hasEmbeddedArt = m.hasEmbeddedArt
        self.artworkPath = file.artworkPath
        self.lyricsPath = file.lyricsPath
        self.addedAt = addedAt
    }

    public var audioFormat: AudioFormat? { AudioFormat(rawValue: format) }
    public var hasArtwork: Bool { hasEmbeddedArt || artworkPath != nil }
}
