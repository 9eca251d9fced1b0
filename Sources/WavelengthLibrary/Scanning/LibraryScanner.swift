import Foundation
import Logging
import WavelengthCore

/// Keeps the library index in step with the music folders.
public struct LibraryScanner: Sendable {
    private let index: any LibraryIndex
    private let logger: Logger
    private let concurrency: Int

    public init(
        index: any LibraryIndex,
        logger: Logger = Logger(label: "wavelength.library"),
        concurrency: Int = ProcessInfo.processInfo.activeProcessorCount
    ) {
        self.index = index
        self.logger = logger
        self.concurrency = max(1, concurrency)
    }

    /// Walks the roots (recursively, following symlinks but never around a loop), stats every
    /// audio file, reads only new or changed ones (size or mtime differ) in parallel, detects
    /// moves and deletions, and applies all changes in one `applyScan` call.
    ///
    /// Files and folders that cannot be used, including roots that do not exist, become
    /// `failures` in the report; only the index's own errors (and cancellation) are thrown.
    public func scan(roots: [String]) async throws -> ScanReport {
        let started = ContinuousClock.now
        let roots = Self.uniqued(roots.map(PathNormalizer.standardize))

        // The index query and the walk are independent; overlap them.
        async let knownFiles = index.knownFiles(under: roots)
        // Thousands of `stat`s and directory reads: off Swift's pool too.
        let walk = await ParallelReader.offPool { DirectoryWalker.walk(roots: roots) }
        let plan = ScanPlan(walk: walk, known: try await knownFiles, roots: roots)

        let outcomes = await ParallelReader.read(plan.jobs, folders: walk.folders, concurrency: concurrency)
        try Task.checkCancellation()

        var newFiles: [ScannedFile] = []
        var updated: [(trackID: String, file: ScannedFile)] = []
        var failures = walk.failures
        for outcome in outcomes {
            switch outcome {
            case .read(let file, existingTrackID: let trackID?): updated.append((trackID, file))
            case .read(let file, existingTrackID: nil): newFiles.append(file)
            case .failed(let failure): failures.append(failure)
            }
        }
        let matched = MoveMatcher.match(newFiles: newFiles, vanished: plan.vanished)
        let changes = ScanChanges(added: matched.added, updated: updated, moved: matched.moved, removed: matched.removedTrackIDs)
        try await index.applyScan(changes)

        failures.sort { $0.path < $1.path }
        let elapsed = started.duration(to: .now)
        var report = ScanReport(
            roots: roots,
            seen: walk.files.count,
            added: changes.added.count,
            updated: changes.updated.count,
            unchanged: plan.unchangedCount,
            moved: changes.moved.count,
            removed: changes.removed.count,
            failed: failures.count,
            failures: failures,
            elapsedSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        )
        report.removedTrackIDs = changes.removed
        log(report)
        return report
    }

    private func log(_ report: ScanReport) {
        for failure in report.failures {
            logger.debug("Skipped unusable file", metadata: ["path": "\(failure.path)", "reason": "\(failure.reason)"])
        }
        logger.info("Library scan finished", metadata: [
            "roots": "\(report.roots)", "seen": "\(report.seen)", "added": "\(report.added)",
            "updated": "\(report.updated)", "unchanged": "\(report.unchanged)", "moved": "\(report.moved)",
            "removed": "\(report.removed)", "failed": "\(report.failed)",
            "seconds": "\(String(format: "%.3f", report.elapsedSeconds))",
        ])
    }

    private static func uniqued(_ paths: [String]) -> [String] {
        var seen: Set<String> = []
        return paths.filter { seen.insert($0).inserted }
    }
}
