import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import WavelengthCore
import WavelengthLibrary
import WavelengthStore

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

    func run() async throws {
        let pending = PendingFolders()
        let (signals, signal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
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
                        for await folders in changes {
                            pending.add(folders)
                            signal.yield()
                        }
                    }
                }
                if let every = fullRescanEvery {
                    group.addTask {
                        while (try? await Task.sleep(for: every)) != nil {
                            pending.add(Set(roots))
                            signal.yield()
                        }
                    }
                }
                group.addTask {
                    for await _ in signals {
                        guard (try? await Task.sleep(for: settle)) != nil else { return }
                        await rescan(pending.take())
                    }
                }
                await group.waitForAll()
            }
        }
        signal.finish()
    }

    private func rescan(_ changed: Set<String>) async {
        let folders = RescanFolders.choose(changed: changed, roots: roots) { FileManager.default.fileExists(atPath: $0) }
        guard !folders.isEmpty else { return }
        do {
            let report = try await LibraryScanner(index: index, logger: logger).scan(roots: folders)
            guard report.added + report.updated + report.moved + report.removed > 0 else { return }
            logger.info(
                "Library rescanned: \(report.added) added, \(report.updated) updated, \(report.moved) moved, \(report.removed) removed, \(report.failed) failed in \(folders.count) folders")
            await indexChanged()
            await directory.tracksLeftTheLibrary(Set(report.removedTrackIDs))
        } catch {
            logger.error("Library rescan failed: \(error)")
        }
    }
}

/// Folders waiting for the next rescan, added by the watch and the timer.
private final class PendingFolders: Sendable {
    private let folders = Mutex(Set<String>())

    func add(_ more: Set<String>) { folders.withLock { $0.formUnion(more) } }

    func take() -> Set<String> {
        folders.withLock { folders in
            defer { folders.removeAll() }
            return folders
        }
    }
}
