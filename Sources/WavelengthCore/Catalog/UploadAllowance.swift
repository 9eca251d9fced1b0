import Foundation

/// What a server lets a person upload: their own quota (an administrator's
/// setting for them, else the server's default) and the server's cap over
/// everyone's uploads together.
public struct UploadAllowance: Sendable, Equatable {
    public var defaultQuotaBytes: Int64
    public var serverCapBytes: Int64

    public init(defaultQuotaBytes: Int64, serverCapBytes: Int64) {
        self.defaultQuotaBytes = defaultQuotaBytes
        self.serverCapBytes = serverCapBytes
    }

    /// 1 GB each, as AzuraCast's and Navidrome's operators expect to set.
    public static let defaultQuota: Int64 = 1 << 30

    public enum Refusal: Error, Sendable, Equatable {
        /// The person's uploads would pass their quota (bytes).
        case quota(Int64)
        /// Everyone's uploads would pass the server's cap (bytes).
        case cap(Int64)
    }

    /// Whether `adding` more bytes fit: the person's `used` against their
    /// `quota` (an administrator's setting, else the default), and the
    /// server's `serverUsed` against its cap.
    public func refusal(adding: Int64, used: Int64, quota: Int64?, serverUsed: Int64) -> Refusal? {
        let quota = quota ?? defaultQuotaBytes
        if used + adding > quota { return .quota(quota) }
        if serverUsed + adding > serverCapBytes { return .cap(serverCapBytes) }
        return nil
    }
}

/// An administrator's correction of a track's tags, kept over what the
/// file says: a field left nil is the file's own. Rescans keep it.
public struct TagOverride: Sendable, Equatable, Codable {
    public var title: String?
    public var artist: String?
    public var album: String?

    public init(title: String? = nil, artist: String? = nil, album: String? = nil) {
        self.title = title
        self.artist = artist
        self.album = album
    }

    public var isEmpty: Bool { title == nil && artist == nil && album == nil }

    /// The file's tags with this correction laid over them. The album
    /// artist follows a corrected artist unless it was a different one
    /// (a compilation's).
    public func applied(to tags: TrackTags) -> TrackTags {
        var tags = tags
        if let title { tags.title = title }
        if let album { tags.album = album }
        if let artist {
            if tags.albumArtist == tags.artist { tags.albumArtist = artist }
            tags.artist = artist
        }
        return tags
    }
}


/// A size as people read it: "1 GB", "250 MB", "12 KB".
public enum ByteCount {
    public static func text(_ bytes: Int64) -> String {
        if bytes >= 1 << 30, bytes % (1 << 30) == 0 { return "\(bytes >> 30) GB" }
        if bytes >= 1 << 30 { return String(format: "%.1f GB", Double(bytes) / Double(1 << 30)) }
        if bytes >= 1 << 20 { return "\(bytes >> 20) MB" }
        return "\(max(1, bytes >> 10)) KB"
    }
}
