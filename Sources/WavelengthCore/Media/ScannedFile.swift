/// A file that was read during a scan.
public struct ScannedFile: Sendable, Equatable {
    /// Absolute and standardized (no `.`/`..`, no doubled or trailing slashes); symlinks are kept as walked.
    public var path: String
    public var stamp: FileStamp
    /// Cheap content identity (size + FNV-1a of the first 16 KiB) that survives moves and renames.
    public var fingerprint: String
    public var metadata: TrackMetadata
    /// A folder image (cover/folder/front/album/albumart .jpg/.jpeg/.png) in the same directory,
    /// set only when the file has no embedded art.
    public var artworkPath: String?
    /// A sidecar `.lrc` with the same base name in the same directory.
    public var lyricsPath: String?

    public init(
        path: String, stamp: FileStamp, fingerprint: String, metadata: TrackMetadata,
        artworkPath: String? = nil, lyricsPath: String? = nil
    ) {
        self.path = path
        self.stamp = stamp
        self.fingerprint = fingerprint
        self.metadata = metadata
        self.artworkPath = artworkPath
        self.lyricsPath = lyricsPath
    }
}
