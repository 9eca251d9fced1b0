/// Size and modification time: when both match what the index holds, the file is not read again.
public struct FileStamp: Sendable, Hashable, Codable {
    public var size: Int64
    /// Nanoseconds since 1970, so sub-second edits still count as changes.
    public var mtimeNs: Int64

    public init(size: Int64, mtimeNs: Int64) {
        self.size = size
        self.mtimeNs = mtimeNs
    }
}
