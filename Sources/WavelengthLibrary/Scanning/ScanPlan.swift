import WavelengthCore
/// One file the scan must read: new, or known with a different size or modification time.
struct ReadJob: Sendable {
    var file: WalkedFile
    /// The indexed track at this path, when the file changed in place.
    var existingTrackID: String?
}

/// Compares the walk with the index: which files to read, which are unchanged, which vanished.
///
/// Everything here is dictionary look-ups on stamps, so an unchanged rescan costs one
/// `stat` per file and nothing else.
struct ScanPlan {
    var jobs: [ReadJob] = []
    var unchangedCount = 0
    /// Indexed files under the roots that the walk did not find (and that were not merely
    /// unreachable). Candidates for moves; the rest are removed.
    var vanished: [IndexedFile] = []

    init(walk: WalkResult, known: [IndexedFile], roots: [String]) {
        var unseen = Dictionary(known.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        for file in walk.files {
            if let indexed = unseen.removeValue(forKey: file.path) {
                if indexed.stamp == file.stamp {
                    unchangedCount += 1
                } else {
                    jobs.append(ReadJob(file: file, existingTrackID: indexed.trackID))
                }
            } else {
                jobs.append(ReadJob(file: file, existingTrackID: nil))
            }
        }
        // Only files under the scanned roots can have vanished: the index may hand back more.
        vanished = unseen.values
            .filter { indexed in
                roots.contains { PathNormalizer.isPath(indexed.path, inside: $0) }
                    && !walk.unreachable.contains { PathNormalizer.isPath(indexed.path, inside: $0) }
            }
            .sorted { $0.path < $1.path }
    }
}
