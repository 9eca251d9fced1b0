import Foundation
import WavelengthCore

/// A row of the library index: one audio file, what its tags say
/// (`metadata`, read through as `record.title`, …) and what the analysis
/// measured. Its columns are flat: the metadata's fields beside its own.
@dynamicMemberLookup
public struct TrackRecord: Sendable, Equatable {
    public var id: String
    public var path: String
    public var size: Int64
    public var mtimeNs: Int64
    public var fingerprint: String
    public var metadata: TrackMetadata
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
    /// Who uploaded it, for music brought through the web app rather than
    /// found in the library folders; nil for the library's own.
    public var uploaderID: String?
    /// An upload the uploader shared with the whole server; an unshared one
    /// is in their pool and search alone.
    public var shared: Bool = false
    /// The name the upload's file had on the uploader's device.
    public var uploadName: String?

    public init(id: String, file: ScannedFile, addedAt: Int64) {
        self.id = id
        self.path = file.path
        self.size = file.stamp.size
        self.mtimeNs = file.stamp.mtimeNs
        self.fingerprint = file.fingerprint
        self.metadata = file.metadata
        self.artworkPath = file.artworkPath
        self.lyricsPath = file.lyricsPath
        self.addedAt = addedAt
    }

    public subscript<T>(dynamicMember field: WritableKeyPath<TrackMetadata, T>) -> T {
        get { metadata[keyPath: field] }
        set { metadata[keyPath: field] = newValue }
    }

    public subscript<T>(dynamicMember field: WritableKeyPath<TrackTags, T>) -> T {
        get { metadata.tags[keyPath: field] }
        set { metadata.tags[keyPath: field] = newValue }
    }

    /// A new track's id: "t" and 16 hex digits.
    public static func newID() -> TrackID {
        "t" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
    }

    public var audioFormat: AudioFormat? { metadata.format }
    public var isUpload: Bool { uploaderID != nil }

    /// Whether `viewer` may find it: the library's own and shared uploads
    /// are everyone's, an unshared upload only its uploader's.
    public func isVisible(to viewer: String?) -> Bool {
        uploaderID == nil || shared || uploaderID == viewer
    }
    public var hasArtwork: Bool { metadata.hasEmbeddedArt || artworkPath != nil }
}

extension TrackRecord: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, path, size, mtimeNs, fingerprint, artworkPath, lyricsPath, addedAt
        case loudness, loudnessRange, truePeak, tempo, onsetRate, analyzedAt
        case uploaderID, shared, uploadName
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        path = try c.decode(String.self, forKey: .path)
        size = try c.decode(Int64.self, forKey: .size)
        mtimeNs = try c.decode(Int64.self, forKey: .mtimeNs)
        fingerprint = try c.decode(String.self, forKey: .fingerprint)
        metadata = try TrackMetadata(from: decoder)
        artworkPath = try c.decodeIfPresent(String.self, forKey: .artworkPath)
        lyricsPath = try c.decodeIfPresent(String.self, forKey: .lyricsPath)
        addedAt = try c.decode(Int64.self, forKey: .addedAt)
        loudness = try c.decodeIfPresent(Double.self, forKey: .loudness)
        loudnessRange = try c.decodeIfPresent(Double.self, forKey: .loudnessRange)
        truePeak = try c.decodeIfPresent(Double.self, forKey: .truePeak)
        tempo = try c.decodeIfPresent(Double.self, forKey: .tempo)
        onsetRate = try c.decodeIfPresent(Double.self, forKey: .onsetRate)
        analyzedAt = try c.decodeIfPresent(Int64.self, forKey: .analyzedAt)
        uploaderID = try c.decodeIfPresent(String.self, forKey: .uploaderID)
        shared = try c.decodeIfPresent(Bool.self, forKey: .shared) ?? false
        uploadName = try c.decodeIfPresent(String.self, forKey: .uploadName)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(path, forKey: .path)
        try c.encode(size, forKey: .size)
        try c.encode(mtimeNs, forKey: .mtimeNs)
        try c.encode(fingerprint, forKey: .fingerprint)
        try metadata.encode(to: encoder)
        try c.encodeIfPresent(artworkPath, forKey: .artworkPath)
        try c.encodeIfPresent(lyricsPath, forKey: .lyricsPath)
        try c.encode(addedAt, forKey: .addedAt)
        try c.encodeIfPresent(loudness, forKey: .loudness)
        try c.encodeIfPresent(loudnessRange, forKey: .loudnessRange)
        try c.encodeIfPresent(truePeak, forKey: .truePeak)
        try c.encodeIfPresent(tempo, forKey: .tempo)
        try c.encodeIfPresent(onsetRate, forKey: .onsetRate)
        try c.encodeIfPresent(analyzedAt, forKey: .analyzedAt)
        try c.encodeIfPresent(uploaderID, forKey: .uploaderID)
        try c.encode(shared, forKey: .shared)
        try c.encodeIfPresent(uploadName, forKey: .uploadName)
    }
}
