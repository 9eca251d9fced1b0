import Dispatch
import WavelengthCore

/// The result of reading one file.
enum ReadOutcome: Sendable {
    case read(ScannedFile, existingTrackID: String?)
    case failed(ScanFailure)
}

/// Reads files with a fixed number of workers.
///
/// Work is handed out in small chunks as workers free up, so one slow file (a huge FLAC on a
/// cold disk) does not leave the other workers idle, while per-task overhead stays low.
///
/// A read blocks on the file and FFmpeg parses it, so each chunk runs on `queue`, never on
/// Swift's cooperative pool: that pool has one thread per core, and a scan with a worker per
/// core held all of them, so every other task of the process (a server's handlers, in the
/// tests a dozen servers starting at once) waited for the scan.
enum ParallelReader {
    /// Where the scan's blocking work runs (`read`'s chunks and the walk).
    static let queue = DispatchQueue(label: "wavelength.scan-reads", qos: .utility, attributes: .concurrent)

    /// Runs blocking `work` on `queue` and waits for it without holding a pool thread.
    static func offPool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: work()) }
        }
    }

    /// `reader` reads one file (a parameter for the tests).
    static func read(
        _ jobs: [ReadJob], folders: [WalkedFolder], concurrency: Int,
        reader: @escaping @Sendable (ReadJob, [WalkedFolder]) -> ReadOutcome = readOne
    ) async -> [ReadOutcome] {
        guard !jobs.isEmpty else { return [] }
        let workers = max(1, concurrency)
        let chunkSize = max(1, min(32, jobs.count / (workers * 4)))
        let chunkStarts = Array(stride(from: 0, to: jobs.count, by: chunkSize))

        return await withTaskGroup(of: (Int, [ReadOutcome]).self) { group in
            var next = 0
            func startNextChunk() {
                guard next < chunkStarts.count else { return }
                let start = chunkStarts[next]
                let slice = Array(jobs[start..<min(start + chunkSize, jobs.count)])
                next += 1
                group.addTask {
                    // A cancelled scan starts no more chunks (each is at most 32 files).
                    if Task.isCancelled { return (start, []) }
                    return await offPool {
                        var outcomes: [ReadOutcome] = []
                        outcomes.reserveCapacity(slice.count)
                        for job in slice { outcomes.append(reader(job, folders)) }
                        return (start, outcomes)
                    }
                }
            }
            for _ in 0..<workers { startNextChunk() }

            var results: [(Int, [ReadOutcome])] = []
            while let finished = await group.next() {
                results.append(finished)
                startNextChunk()
            }
            // Keep walk order, so reports and changes are deterministic.
            return results.sorted { $0.0 < $1.0 }.flatMap(\.1)
        }
    }

    private static func readOne(_ job: ReadJob, folders: [WalkedFolder]) -> ReadOutcome {
        do {
            let scanned = try ScannedFileReader.read(job.file, in: folders[job.file.folder])
            return .read(scanned, existingTrackID: job.existingTrackID)
        } catch let error as LibraryError {
            if case .unreadable(let reason) = error {
                return .failed(ScanFailure(path: job.file.path, reason: reason))
            }
            return .failed(ScanFailure(path: job.file.path, reason: error.description))
        } catch {
            return .failed(ScanFailure(path: job.file.path, reason: String(describing: error)))
        }
    }
}
