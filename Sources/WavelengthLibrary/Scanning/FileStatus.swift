#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import WavelengthCore

/// The parts of `stat(2)` a scan needs.
struct FileStatus {
    var isDirectory: Bool
    var isRegularFile: Bool
    var stamp: FileStamp
    var identity: FileIdentity

    init(_ info: stat) {
        isDirectory = info.st_mode & S_IFMT == S_IFDIR
        isRegularFile = info.st_mode & S_IFMT == S_IFREG
        #if canImport(Darwin)
        let modified = info.st_mtimespec
        #else
        let modified = info.st_mtim
        #endif
        stamp = FileStamp(size: Int64(info.st_size), mtimeNs: Int64(modified.tv_sec) * 1_000_000_000 + Int64(modified.tv_nsec))
        identity = FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// `fstatat` relative to an open directory: no path resolution from `/` for every file.
    /// Follows symlinks, so a link reports what it points to.
    static func of(_ name: String, inDirectory directoryFD: Int32) -> Result<FileStatus, SystemError> {
        var info = stat()
        guard fstatat(directoryFD, name, &info, 0) == 0 else { return .failure(SystemError(errno)) }
        return .success(FileStatus(info))
    }

    static func of(path: String) -> Result<FileStatus, SystemError> {
        var info = stat()
        guard stat(path, &info) == 0 else { return .failure(SystemError(errno)) }
        return .success(FileStatus(info))
    }

    static func of(openDirectory directoryFD: Int32) -> Result<FileStatus, SystemError> {
        var info = stat()
        guard fstat(directoryFD, &info) == 0 else { return .failure(SystemError(errno)) }
        return .success(FileStatus(info))
    }
}

/// Device and inode: what makes two paths the same directory (used to break symlink loops).
struct FileIdentity: Hashable {
    var device: UInt64
    var inode: UInt64
}

/// An `errno` with its text.
struct SystemError: Error {
    var code: Int32

    init(_ code: Int32) {
        self.code = code
    }

    var message: String {
        code == ENOENT ? "it does not exist" : String(cString: strerror(code))
    }
}
