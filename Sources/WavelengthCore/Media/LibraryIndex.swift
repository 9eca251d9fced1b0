/// The persistent index of scanned files. Storage implements it (one SQLite transaction per
/// `applyScan`); the scanner only reads it once and writes it once per scan.
public protocol LibraryIndex: Sendable {
    /// Every indexed file whose path is one of `roots` or lies beneath one of them.
    /// Roots are absolute and standardized, without a trailing slash.
    func knownFiles(under roots: [String]) async throws -> [IndexedFile]
    /// Applies one scan's changes atomically.
    func applyScan(_ changes: ScanChanges) async throws
}
