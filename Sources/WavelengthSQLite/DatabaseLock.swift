import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Who has the embedded database: a running server holds this lock for its
/// whole life, and a restore takes it before it replaces the file, so a
/// restore never pulls the database from under a running server and two
/// servers never share one file. An advisory `flock` on `PATH.lock` (0600):
/// the kernel lets go of it when the process ends, even by `kill -9`.
public final class DatabaseLock: Sendable {
    private let descriptor: Int32

    public struct Held: Error, CustomStringConvertible {
        public let description: String
    }

    /// Takes the lock on the database at `path`, or throws `Held` at once
    /// when another process has it.
    public init(databasePath path: String) throws {
        let lockPath = path + ".lock"
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw Held(description: "Can't open \(lockPath): \(String(cString: strerror(errno))).")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno
            close(descriptor)
            throw Held(
                description: reason == EWOULDBLOCK
                    ? "A Wavelength server is using \(path) (it holds \(lockPath)); stop it first."
                    : "Can't lock \(lockPath): \(String(cString: strerror(reason))).")
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }
}
