/// Everything one scan changes in the index, applied by `LibraryIndex.applyScan` in one go.
public struct ScanChanges: Sendable {
    /// Files the index has never seen.
    public var added: [ScannedFile]
    /// Known paths whose size or modification time changed; re-read.
    public var updated: [(trackID: String, file: ScannedFile)]
    /// A vanished known path whose fingerprint matches a new file: the track keeps its ID.
    public var moved: [(trackID: String, file: ScannedFile)]
    /// Track IDs of known files under the scanned roots that are gone.
    public var removed: [String]

    public init(
        added: [ScannedFile] = [], updated: [(trackID: String, file: ScannedFile)] = [],
        moved: [(trackID: String, file: ScannedFile)] = [], removed: [String] = []
    ) {
        self.added = added
        self.updated = updated
        self.moved = moved
        self.removed = removed
    }

    public var isEmpty: Bool {
        added.isEmpty && updated.isEmpty && moved.isEmpty && removed.isEmpty
    }
}
