import Foundation
import Hummingbird
import NIOCore
import NIOPosix
import Synchronization

/// Where uploaded music lives: `<data>/uploads/<track id>.<ext>`, each
/// file 0600 in a 0700 folder (the server's umask), read only through the
/// track API. A body is streamed to `incoming/` first and moved into place
/// only whole and read; a `kill -9` mid-upload leaves no track, and any
/// part file is swept away at the next start.
struct UploadFiles: Sendable {
    let folder: String
    var incoming: String { folder + "/incoming" }

    /// Absolute, so a row's path stays right when `--data` was given relative.
    init(folder: String) {
        self.folder = URL(fileURLWithPath: folder).standardizedFileURL.path
    }

    /// Creates the folders (the library roots must find the uploads folder to
    /// serve from it) and removes what a crash left: part files, and files no
    /// track names (moved into place before the row was written). Rows are
    /// matched by file name (the track's id), never by the whole path, so a
    /// data folder moved or spelled another way loses nothing.
    func prepare(keep stored: Set<String>) throws -> Int {
        let manager = FileManager.default
        try manager.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        if manager.fileExists(atPath: incoming) { try manager.removeItem(atPath: incoming) }
        try manager.createDirectory(atPath: incoming, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let keep = Set(stored.map { ($0 as NSString).lastPathComponent })
        var removed = 0
        for name in try manager.contentsOfDirectory(atPath: folder) where name != "incoming" && !keep.contains(name) {
            try? manager.removeItem(atPath: folder + "/" + name)
            removed += 1
        }
        return removed
    }

    /// A part file in `incoming/`, empty.
    func newPart() -> String {
        incoming + "/" + UUID().uuidString + ".part"
    }

    /// Streams `body` into `path`, at most `limit` bytes (else
    /// `UploadTooLarge`), through NIO's file system (no thread of the
    /// cooperative pool waits on a write), then makes it durable.
    /// A body that sends nothing for `idle` is given up (`UploadStalled`).
    func write(
        _ body: RequestBody, to path: String, limit: Int64, idle: Duration, context: some RequestContext
    ) async throws -> Int64 {
        let counted = LimitedBody(body: body, limit: limit)
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await FileIO().writeFile(contents: counted, path: path, context: context) }
                group.addTask {
                    try await counted.overflow.watch(idle: idle)
                    throw UploadStalled(idle: idle)
                }
                // The first to end ends both: the whole body written, or the
                // sender silent too long (the write is cancelled, and with it
                // the body's read).
                try await group.next()
                group.cancelAll()
            }
        } catch where counted.overflow.passed.load(ordering: .relaxed) {
            // The file system wraps the body's error in one of its own.
            throw UploadTooLarge()
        }
        try await NIOThreadPool.singleton.runIfActive { try Self.sync(path) }
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.size] as? NSNumber)?.int64Value ?? 0
    }

    /// Moves a read part file into place as the track's file, durably.
    func keep(_ part: String, trackID: String, extension ext: String) async throws -> String {
        let target = folder + "/" + trackID + "." + ext
        try await NIOThreadPool.singleton.runIfActive {
            guard rename(part, target) == 0 else { throw UploadFileError(errno: errno) }
            try Self.sync(folder)
        }
        return target
    }

    func discard(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// A stored upload's file, once its row is gone. Only inside the folder.
    func remove(_ path: String) {
        guard path.hasPrefix(folder + "/"), !path.contains("/../") else { return }
        try? FileManager.default.removeItem(atPath: path)
    }

    private static func sync(_ path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw UploadFileError(errno: errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw UploadFileError(errno: errno) }
    }
}

struct UploadFileError: Error, CustomStringConvertible {
    var errno: Int32
    var description: String { String(cString: strerror(errno)) }
}

/// The body is larger than the upload may be.
struct UploadTooLarge: Error {}

/// A request body that throws `UploadTooLarge` once it passes `limit`
/// bytes, so an upload past the quota stops while it streams, not after.
struct LimitedBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let body: RequestBody
    let limit: Int64
    /// Set once the body passed the limit, read after the write failed.
    let overflow = Overflow()

    final class Overflow: Sendable {
        let passed = Atomic<Bool>(false)
        /// Bytes read so far, for the idle watch.
        let seen = Atomic<Int64>(0)

        /// Returns once nothing has arrived for `idle` (the caller gives up);
        /// thrown out of by cancellation when the body ends first.
        func watch(idle: Duration) async throws {
            var last = seen.load(ordering: .relaxed)
            var since = ContinuousClock.now
            let step = Swift.min(idle, .seconds(1))
            while true {
                try await Task.sleep(for: step)
                let now = seen.load(ordering: .relaxed)
                if now != last {
                    last = now
                    since = .now
                } else if ContinuousClock.now - since >= idle {
                    return
                }
            }
        }
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: RequestBody.AsyncIterator
        let limit: Int64
        let overflow: Overflow
        var seen: Int64 = 0

        mutating func next() async throws -> ByteBuffer? {
            guard let buffer = try await base.next() else { return nil }
            seen += Int64(buffer.readableBytes)
            overflow.seen.store(seen, ordering: .relaxed)
            if seen > limit {
                overflow.passed.store(true, ordering: .relaxed)
                throw UploadTooLarge()
            }
            return buffer
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: body.makeAsyncIterator(), limit: limit, overflow: overflow)
    }
}

/// An upload's sender went silent mid-body.
struct UploadStalled: Error {
    let idle: Duration
}
