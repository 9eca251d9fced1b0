import Foundation
import Synchronization

/// Starts child processes one at a time.
///
/// Foundation's `Process.run()` on Linux is not safe to call from several
/// threads at once: under concurrent launches a child's exit can go
/// unnoticed, leaving whoever waits for it waiting forever. The children
/// still run side by side; only the launch itself is serialised.
public enum ProcessLauncher {
    private static let launching = Mutex(())

    public static func run(_ process: Process) throws {
        try launching.withLock { _ in try process.run() }
    }

    /// Runs a process to completion without blocking a thread, and answers
    /// its exit status.
    public static func runToCompletion(_ process: Process) async throws -> Int32 {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int32, any Error>) in
            process.terminationHandler = { finished in
                continuation.resume(returning: finished.terminationStatus)
            }
            do {
                try run(process)
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
    }
}
