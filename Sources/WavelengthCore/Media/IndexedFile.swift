/// What the index already knows about a file.
public struct IndexedFile: Sendable, Equatable {
    public var trackID: String
    public var path: String
    public var stamp: FileStamp
    public var fingerprint: String

    public init(trackID: String, path: String, stamp: FileStamp, fingerprint: String) {
        self.trackID = trackID
        self.path = path
        self.stamp = stamp
        self.fingerprint = fingerprint
    }
}
