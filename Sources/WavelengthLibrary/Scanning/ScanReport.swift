/// A file or folder a scan could not use, and why (for people: shown in the admin UI).
public struct ScanFailure: Sendable, Codable, Equatable {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}

/// What one scan found and did.
public struct ScanReport: Sendable, Codable, Equatable {
    public var roots: [String]
    /// Audio files found under the roots (by extension), whether read or not.
    public var seen: Int
    public var added: Int
    public var updated: Int
    /// Known files whose size and modification time matched, so they were not read.
    public var unchanged: Int
    public var moved: Int
    public var removed: Int
    /// Equal to `failures.count`: unreadable files, missing roots, unlistable folders.
    public var failed: Int
    public var failures: [ScanFailure]
    public var elapsedSeconds: Double
    /// The tracks that left the index (their files are gone), for stations
    /// that have them on their timelines.
    public var removedTrackIDs: [String] = []

    public init(
        roots: [String], seen: Int, added: Int, updated: Int, unchanged: Int, moved: Int, removed: Int,
        failed: Int, failures: [ScanFailure], elapsedSeconds: Double
    ) {
        self.roots = roots
        self.seen = seen
        self.added = added
        self.updated = updated
        self.unchanged = unchanged
        self.moved = moved
        self.removed = removed
        self.failed = failed
        self.failures = failures
        self.elapsedSeconds = elapsedSeconds
    }
}
