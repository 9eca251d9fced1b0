import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The server's data folder holds the database (sessions, members, access
/// codes) and the signing keys: another user on the host who could read it
/// could sign in as anyone. It is made 0700 and everything in it 0600/0700.
public enum DataFolder {
    /// Makes `path` (and everything the process creates from now on) private
    /// to the server's user, and tightens what an older version left open.
    ///
    /// The umask is process-wide on purpose: SQLite creates its `-wal` and
    /// `-shm` files, ffmpeg its transcodes and the scanner its demo library
    /// with the default mode, and a umask covers them all, including files a
    /// later change adds.
    public static func secure(_ path: String) throws {
        umask(0o077)
        let files = FileManager.default
        try files.createDirectory(
            atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try tighten(path)
    }

    /// 0700 for folders and 0600 for files, below `path` too. Symlinks are
    /// left alone (never followed): chmod through one would change the file
    /// it points to, which may not be ours.
    static func tighten(_ path: String) throws {
        try setMode(path, isFolder: true)
        guard let walker = FileManager.default.enumerator(atPath: path) else { return }
        while let relative = walker.nextObject() as? String {
            let full = path + "/" + relative
            var info = stat()
            guard lstat(full, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: try setMode(full, isFolder: true)
            case S_IFREG: try setMode(full, isFolder: false)
            default: continue
            }
        }
    }

    private static func setMode(_ path: String, isFolder: Bool) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        let wanted: mode_t = isFolder ? 0o700 : 0o600
        // Only ever take permissions away (a file already 0400 stays so).
        let mode = info.st_mode & 0o7777
        let tightened = mode & wanted
        guard tightened != mode else { return }
        guard chmod(path, tightened) == 0 else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
    }
}
