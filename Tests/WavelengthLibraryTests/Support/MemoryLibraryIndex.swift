import WavelengthLibrary

/// An in-memory `LibraryIndex` that behaves like the SQLite one: IDs are assigned on add,
/// kept on update and move, and dropped on remove.
actor MemoryLibraryIndex: LibraryIndex {
    private(set) var tracks: [String: ScannedFile] = [:]
    private(set) var applyCount = 0
    private var nextID = 1

    func knownFiles(under roots: [String]) async throws -> [IndexedFile] {
        tracks.compactMap { id, file in
            let inside = roots.contains { file.path == $0 || file.path.hasPrefix($0 + "/") }
            return inside ? IndexedFile(trackID: id, path: file.path, stamp: file.stamp, fingerprint: file.fingerprint) : nil
        }
    }

    func applyScan(_ changes: ScanChanges) async throws {
        applyCount += 1
        for file in changes.added {
            tracks["track-\(nextID)"] = file
            nextID += 1
        }
        for (id, file) in changes.updated + changes.moved {
            tracks[id] = file
        }
        for id in changes.removed {
            tracks[id] = nil
        }
    }

    func trackID(forPath path: String) -> String? {
        tracks.first { $0.value.path == path }?.key
    }

    func file(atPath path: String) -> ScannedFile? {
        tracks.values.first { $0.path == path }
    }

    /// Pretends an earlier scan indexed a file that is no longer where the index thinks.
    func insert(_ file: ScannedFile, id: String) {
        tracks[id] = file
    }
}
