import Dispatch
import Foundation
import Synchronization
import Testing
@testable import WavelengthLibrary

/// The scan's reads block on files, so they must not hold Swift's
/// cooperative pool (one thread per core): a server's handlers, and in the
/// tests every other test, run there.
@Suite("Parallel reader", .timeLimit(.minutes(5)))
struct ParallelReaderTests {
    /// Every read waits until a task on Swift's pool lets it go, and that
    /// task does so only once as many reads wait as the pool has threads.
    /// Were the reads on the pool, they would then hold every one of its
    /// threads, that task could never run, and the scan would never end. The
    /// suite's time limit could not fire either (it waits on the same pool):
    /// `scripts/test.sh` fails the run as stalled, naming this test.
    @Test func readsThatBlockLeaveSwiftsPoolFree() async {
        let gate = DispatchSemaphore(value: 0)
        let waiting = Count()
        let poolThreads = ProcessInfo.processInfo.activeProcessorCount
        let folder = WalkedFolder(root: "/music", sidecars: FolderSidecars(directory: "/music", names: []))
        let jobs = (0..<40).map { index in
            ReadJob(
                file: WalkedFile(path: "/music/\(index).mp3", name: "\(index).mp3", stamp: FileStamp(size: 1, mtimeNs: 1), folder: 0),
                existingTrackID: nil)
        }
        async let outcomes = ParallelReader.read(jobs, folders: [folder], concurrency: poolThreads + 1) { job, _ in
            waiting.value.add(1, ordering: .relaxed)
            gate.wait()
            return .failed(ScanFailure(path: job.file.path, reason: "read"))
        }
        await Task.detached {
            while waiting.value.load(ordering: .relaxed) < poolThreads { await Task.yield() }
            for _ in jobs { gate.signal() }
        }.value
        let paths = await outcomes.map { outcome -> String in
            guard case .failed(let failure) = outcome else { return "" }
            return failure.path
        }
        #expect(paths == jobs.map(\.file.path))  // every file, in walk order
    }
}

/// How many reads wait, shared with the reads.
private final class Count: Sendable {
    let value = Atomic(0)
}
