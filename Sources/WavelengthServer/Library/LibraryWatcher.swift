import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import WavelengthCore
import WavelengthLibrary
import WavelengthStore
import WavelengthWire

/// Music that arrives while the server runs: the library folders are
/// watched (inotify), and the folders that changed are rescanned moments
/// later: new files are in search within seconds, changed ones re-read,
/// moved ones keep their track, removed ones leave the index and the
/// timelines of stations running here. A full rescan every
/// `fullRescanEvery` catches what a watch misses (a folder past the
/// kernel's watch limit, a network mount).
///
/// One rescan at a time: changes that arrive during one wait for the next.
struct LibraryWatcher: Service {
    let roots: [String]
    /// Watch with inotify; without, only the full rescans run.
    let watch: Bool
    let index: any LibraryIndex
    let directory: StationDirectory
    /// Called after a rescan that changed the index.
    let indexChanged: @Sendable () async -> Void
    let fullRescanEvery: Duration?
    /// How long after the first change a rescan starts, so one copy of many
    /// files is one rescan.
    let settle: Duration
    let logger: Logger
    /// What waits to be rescanned, shared with the admin's "Scan now".
    let queue: LibraryRescanQueue

    func run() async throws {
        let folderWatch: FolderWatch?
        do {
            folderWatch = self.watch ? try FolderWatch(roots: roots) : nil
            if let refused = folderWatch?.refusedWatches, refused > 0 {
                logger.warning(
                    "The kernel refused to watch \(refused) library folders (fs.inotify.max_user_watches): music copied there shows up at the next full rescan")
            }
        } catch {
            folderWatch = nil
            logger.warning("Library folders are not watched (\(error)): new music shows up at the next full rescan")
        }
        defer { folderWatch?.stop() }
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                if let changes = folderWatch?.changes {
                    group.addTask {
                        for await folders in changes { queue.add(folders) }
                    }
                }
                if let every = fullRescanEvery {
                    group.addTask {
                        while (try? await Task.sleep(for: every)) != nil { queue.add(Set(roots)) }
                    }
                }
                let signals = queue.signals()
                group.addTask {
                    for await _ in signals {
                        guard (try? await Task.sleep(for: settle)) != nil else { return }
                        await rescan(queue.take())
                    }
                }
                await group.waitForAll()
            }
        }
    }

    private func rescan(_ changed: Set<String>) async {
        let folders = RescanFolders.choose(changed: changed, roots: roots) { FileManager.default.fileExists(atPath: $0) }
        guard !folders.isEmpty else { return }
        queue.started(folders: folders.count)
        do {
            let report = try await LibraryScanner(index: index, logger: logger).scan(roots: folders)
            queue.finished(report)
            guard report.added + report.updated + report.moved + report.removed > 0 else { return }
            logger.info(
                "Library rescanned: \(report.added) added, \(report.updated) updated, \(report.moved) moved, \(report.removed) removed, \(report.failed) failed in \(folders.count) folders")
            await indexChanged()
            await directory.tracksLeftTheLibrary(Set(report.removedTrackIDs))
        } catch {
            queue.finished(nil)
            logger.error("Library rescan failed: \(error)")
        }
    }
}

/// What waits to be rescanned (the watch's folders, the timer's and an
/// administrator's full rescans) and how the last rescan went.
final class LibraryRescanQueue: Sendable {
    private let pending = Mutex(Set<String>())
    private let status = Mutex(LibraryScanStatus(scanning: false))
    let roots: [String]
    /// The running watcher's wake-ups: one for any number of additions,
    /// since the rescan takes them all.
    private let signal = Mutex<AsyncStream<Void>.Continuation?>(nil)

    init(roots: [String]) {
        self.roots = roots
    }

    /// The wake-ups for this run of the watcher (a server run again on the
    /// same services gets a stream of its own: a finished one stays finished).
    func signals() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        signal.withLock { $0 = continuation }
        if !pending.withLock({ $0.isEmpty }) { continuation.yield() }
        return stream
    }

    func add(_ folders: Set<String>) {
        pending.withLock { $0.formUnion(folders) }
        _ = signal.withLock { $0?.yield() }
    }

    /// "Scan now": every root.
    func scanEverything() { add(Set(roots)) }

    func take() -> Set<String> {
        pending.withLock { pending in
            defer { pending.removeAll() }
            return pending
        }
    }

    var current: LibraryScanStatus {
        status.withLock { status in
            var now = status
            now.queued = !pending.withLock { $0.isEmpty }
            return now
        }
    }

    func started(folders: Int) {
        status.withLock { $0.scanning = true; $0.folders = folders }
    }

    func finished(_ report: ScanReport?) {
        status.withLock { status in
            status.scanning = false
            guard let report else { return }
            status.last = LibraryScanStatus.Last(
                added: report.added, updated: report.updated, moved: report.moved, removed: report.removed,
                failed: report.failed, seconds: report.elapsedSeconds)
        }
    }
}
