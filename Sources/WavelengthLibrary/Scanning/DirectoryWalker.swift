#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import WavelengthCore

/// An audio file found by the walk, with what `stat` said about it.
struct WalkedFile: Sendable {
    var path: String
    var name: String
    var stamp: FileStamp
    /// Index into `WalkResult.folders`.
    var folder: Int
}

/// A folder that holds audio files: its sidecars and the scan root it was reached from.
struct WalkedFolder: Sendable {
    var root: String
    var sidecars: FolderSidecars
}

struct WalkResult: Sendable {
    var files: [WalkedFile] = []
    var folders: [WalkedFolder] = []
    var failures: [ScanFailure] = []
    /// Roots and folders that could not be listed, and audio files that could not be stat'ed:
    /// indexed files under them are kept rather than reported as removed (an unmounted
    /// disk must not empty the library).
    var unreachable: [String] = []

    mutating func fail(_ path: String, _ reason: String) {
        failures.append(ScanFailure(path: path, reason: reason))
        unreachable.append(path)
    }
}

/// Lists audio files under the scan roots with `opendir`/`readdir`/`fstatat`.
///
/// Foundation's enumerator stats and bridges every entry and is several times slower; a
/// rescan of an unchanged library is mostly this walk, so it stays close to the system.
/// Symlinks to folders are followed, but each folder (by device and inode) is listed once,
/// which breaks loops; real folders are listed before symlinked ones, so a folder reachable
/// both ways always gets its real path.
struct DirectoryWalker {
    private var listed: Set<FileIdentity> = []
    private(set) var result = WalkResult()

    static func walk(roots: [String]) -> WalkResult {
        var walker = DirectoryWalker()
        for root in roots { walker.walk(root: root) }
        return walker.result
    }

    private mutating func walk(root: String) {
        switch FileStatus.of(path: root) {
        case .failure(let error):
            result.fail(root, "cannot scan this folder: \(error.message)")
            return
        case .success(let status) where !status.isDirectory:
            result.fail(root, "cannot scan this folder: it is not a folder")
            return
        case .success:
            break
        }
        var pending = [root]
        var symlinked: [String] = []
        while true {
            if let folder = pending.popLast() {
                list(folder, root: root, pending: &pending, symlinked: &symlinked)
            } else if let folder = symlinked.popLast() {
                pending.append(folder)
            } else {
                break
            }
        }
    }

    private mutating func list(_ directory: String, root: String, pending: inout [String], symlinked: inout [String]) {
        guard let handle = opendir(directory) else {
            result.fail(directory, "cannot list this folder: \(SystemError(errno).message)")
            return
        }
        defer { closedir(handle) }
        let descriptor = dirfd(handle)
        guard case .success(let status) = FileStatus.of(openDirectory: descriptor),
              listed.insert(status.identity).inserted
        else { return }

        var audio: [(name: String, stamp: FileStamp)] = []
        var sidecarNames: [String] = []
        while let entry = readdir(handle) {
            let type = entry.pointee.d_type
            guard let name = Self.name(of: entry, directory: directory, result: &result) else { continue }
            // Hidden entries are skipped: ".Trash", ".git" and macOS "._x.mp3" resource forks.
            guard !name.hasPrefix(".") else { continue }

            var isDirectory = type == UInt8(DT_DIR)
            var isSymlink = false
            let format = type == UInt8(DT_DIR) ? nil : AudioFormat.forFileName(name)
            var stamp: FileStamp?
            if type == UInt8(DT_LNK) || type == UInt8(DT_UNKNOWN) || (type == UInt8(DT_REG) && format != nil) {
                switch FileStatus.of(name, inDirectory: descriptor) {
                case .failure(let error):
                    // A dangling link or a racing delete; only audio files are worth reporting.
                    if format != nil { result.fail(PathNormalizer.join(directory, name), "cannot read it: \(error.message)") }
                    continue
                case .success(let target):
                    isSymlink = type == UInt8(DT_LNK)
                    isDirectory = target.isDirectory
                    if target.isRegularFile { stamp = target.stamp }
                }
            }

            if isDirectory {
                let path = PathNormalizer.join(directory, name)
                if isSymlink { symlinked.append(path) } else { pending.append(path) }
            } else if format != nil, let stamp {
                audio.append((name, stamp))
            } else if type != UInt8(DT_DIR), FolderSidecars.isCandidate(name.lowercased()) {
                sidecarNames.append(name)
            }
        }

        guard !audio.isEmpty else { return }
        let folderIndex = result.folders.count
        result.folders.append(WalkedFolder(root: root, sidecars: FolderSidecars(directory: directory, names: sidecarNames)))
        for file in audio {
            result.files.append(WalkedFile(path: PathNormalizer.join(directory, file.name), name: file.name, stamp: file.stamp, folder: folderIndex))
        }
    }

    /// The entry's name; names that are not UTF-8 cannot be represented in the index, so
    /// audio files and folders with such names are reported instead of silently skipped.
    private static func name(of entry: UnsafeMutablePointer<dirent>, directory: String, result: inout WalkResult) -> String? {
        let valid = withUnsafePointer(to: &entry.pointee.d_name) { tuple in
            tuple.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: tuple.pointee)) {
                String(validatingCString: $0)
            }
        }
        if let valid { return valid == "." || valid == ".." ? nil : valid }
        let bytes = withUnsafeBytes(of: &entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
        let lossy = String(decoding: bytes, as: UTF8.self)
        if entry.pointee.d_type == UInt8(DT_DIR) || AudioFormat.forFileName(lossy) != nil {
            result.failures.append(ScanFailure(path: PathNormalizer.join(directory, lossy), reason: "its name is not valid UTF-8"))
        }
        return nil
    }
}
