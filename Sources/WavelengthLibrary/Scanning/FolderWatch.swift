#if canImport(Glibc)
import Glibc
import Foundation

/// Watches the music folders with the kernel's inotify, every folder below
/// the roots, and reports which folders changed: a file written, moved in
/// or out, or deleted, a folder made or removed. It reads no file itself;
/// the scanner then rescans just those folders.
///
/// The reads run on a thread of their own, blocked in `poll` until the
/// kernel has events or `stop()` is called: no polling loop, and never a
/// blocking call on Swift's cooperative pool.
///
/// Only state the thread owns is mutated (the watch table); `changes` is an
/// `AsyncStream`, whose continuation may be used from any thread.
public final class FolderWatch: Sendable {
    /// Folders that changed since the last batch; a folder may be gone by
    /// the time it is read (`RescanFolders.choose` takes care of that).
    public let changes: AsyncStream<Set<String>>
    /// The pipe's write end (`stop()`); its read end is the thread's.
    private let wakeWriter: Int32
    /// Watches the kernel refused (its `max_user_watches`): those folders
    /// are left to the scheduled full rescan.
    public let refusedWatches: Int

    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts watching every folder under `roots` (symlinked folders
    /// included, each watched once).
    public init(roots: [String]) throws {
        let inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard inotify >= 0 else { throw Unavailable(description: "inotify: \(String(cString: strerror(errno)))") }
        // A pipe wakes the thread for `stop()`: it polls the read end too.
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            close(inotify)
            throw Unavailable(description: "pipe: \(String(cString: strerror(errno)))")
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        let (changes, continuation) = AsyncStream.makeStream(of: Set<String>.self, bufferingPolicy: .bufferingNewest(64))
        self.changes = changes
        self.wakeWriter = ends[1]
        var table = WatchTable()
        for root in roots { table.watchTree(root, inotify: inotify) }
        self.refusedWatches = table.refused
        let (inotifyFD, wakeFD, watched) = (inotify, ends[0], table)
        let thread = Thread {
            Self.read(inotify: inotifyFD, wake: wakeFD, table: watched, into: continuation)
        }
        thread.name = "wavelength.library-watch"
        thread.start()
    }

    /// Ends the watch: the thread returns and `changes` finishes.
    public func stop() {
        var one: UInt8 = 1
        _ = write(wakeWriter, &one, 1)
    }

    /// Closing the pipe's write end wakes the thread too; the thread closes
    /// the read end and the inotify descriptor as it returns.
    deinit {
        close(wakeWriter)
    }

    /// The thread's loop: waits in `poll`, reads whole batches of events,
    /// and sends the folders they touched.
    private static func read(inotify: Int32, wake: Int32, table: WatchTable, into continuation: AsyncStream<Set<String>>.Continuation) {
        var table = table
        defer {
            continuation.finish()
            close(inotify)
            close(wake)
        }
        let bufferSize = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: bufferSize, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            var fds = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 { return }
            var changed: Set<String> = []
            while true {
                let count = Glibc.read(inotify, buffer, bufferSize)
                guard count > 0 else { break }
                var offset = 0
                while offset + MemoryLayout<inotify_event>.size <= count {
                    let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                    let nameStart = offset + MemoryLayout<inotify_event>.size
                    let name = event.len > 0
                        ? String(cString: buffer.advanced(by: nameStart).assumingMemoryBound(to: CChar.self)) : ""
                    offset = nameStart + Int(event.len)
                    table.apply(event, name: name, inotify: inotify, changed: &changed)
                }
            }
            if !changed.isEmpty { continuation.yield(changed) }
        }
    }
}

/// Which folder each watch descriptor stands for. Owned by the watch's
/// thread once it starts.
private struct WatchTable: Sendable {
    var folders: [Int32: String] = [:]
    var refused = 0
    /// Each watched folder's device and inode, both ways: a folder is
    /// watched once (a symlink loop ends here, as in the scanner's walk),
    /// and a folder moved inside the library keeps its watch under its new
    /// path. A key is let go with its watch, since a new folder may get the
    /// inode of one deleted.
    var watchByKey: [String: Int32] = [:]
    var keyByWatch: [Int32: String] = [:]

    static func key(_ folder: String) -> String? {
        var info = stat()
        guard stat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
        return "\(info.st_dev):\(info.st_ino)"
    }

    mutating func watchTree(_ folder: String, inotify: Int32) {
        guard let key = Self.key(folder), watchByKey[key] == nil else { return }
        let descriptor = inotify_add_watch(inotify, folder, FolderWatchMask.value)
        guard descriptor >= 0 else {
            refused += 1
            return
        }
        folders[descriptor] = folder
        watchByKey[key] = descriptor
        keyByWatch[descriptor] = key
        guard let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            guard name != ".", name != "..", !name.hasPrefix(".") else { continue }
            let type = entry.pointee.d_type
            if type == DT_DIR || type == DT_LNK || type == DT_UNKNOWN {
                watchTree(folder + "/" + name, inotify: inotify)
            }
        }
    }

    /// A watched folder now lives at `path` (moved within the library): it
    /// and every folder below it are renamed in the table.
    mutating func moved(_ descriptor: Int32, to path: String) {
        guard let old = folders[descriptor], old != path else { return }
        for (watch, folder) in folders where folder == old || folder.hasPrefix(old + "/") {
            folders[watch] = path + folder.dropFirst(old.count)
        }
    }

    mutating func apply(_ event: inotify_event, name: String, inotify: Int32, changed: inout Set<String>) {
        if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
            // Events were lost: every folder is rescanned.
            changed.formUnion(folders.values)
            return
        }
        guard let folder = folders[event.wd] else { return }
        if event.mask & UInt32(IN_IGNORED) != 0 {
            // The folder is gone (or left the file system): its watch too.
            folders[event.wd] = nil
            if let key = keyByWatch.removeValue(forKey: event.wd) { watchByKey[key] = nil }
            return
        }
        if event.mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
            // Its parent hears of it too, and rescans what it holds now.
            changed.insert(folder)
            return
        }
        guard !name.hasPrefix(".") else { return }  // editors' and copiers' temporary files
        changed.insert(folder)
        if event.mask & UInt32(IN_ISDIR) != 0, event.mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
            let path = folder + "/" + name
            if let key = Self.key(path), let watch = watchByKey[key] {
                moved(watch, to: path)
            } else {
                // A new folder: watched at once, and what is already in it
                // (copied before the watch began) is in the rescan of its parent.
                watchTree(path, inotify: inotify)
            }
        }
    }
}

/// What is watched: files written, made, moved in or out, deleted, their
/// attributes; each watched folder's own deletion and move; folders only.
private enum FolderWatchMask {
    static let value: UInt32 = UInt32(IN_CLOSE_WRITE | IN_CREATE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE | IN_DELETE_SELF
        | IN_MOVE_SELF | IN_ATTRIB) | UInt32(bitPattern: Int32(IN_ONLYDIR))
}
#endif
