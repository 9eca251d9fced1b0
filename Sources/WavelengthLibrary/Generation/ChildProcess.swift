import Foundation
import Logging
import Subprocess
import Synchronization
import SystemPackage

/// Runs child processes (ffmpeg, mostly) with swift-subprocess, never with
/// Foundation's `Process`.
///
/// On Linux, Foundation's `Process` learns of a child's exit through a socket
/// the child inherits, watched by one run-loop thread shared by every child, and
/// its file handles' reads and its wait for exit block the calling thread.
/// swift-subprocess watches each child through its own pidfd and reads its
/// pipes without blocking, both from one epoll thread of its own, so waiting
/// for a child or for its output never holds a thread of Swift's cooperative
/// pool (which has one thread per core). Its pipes are close-on-exec from the
/// start, so launches need no lock. Cancelling the task that waits kills the
/// child.
public enum ChildProcess {
    /// How a child ended.
    public struct Finished: Sendable {
        public let status: TerminationStatus
        /// The last bytes the child wrote to standard error, as text.
        public let errorTail: String
    }

    /// An executable named by its full path.
    public static func executable(atPath path: String) -> Executable {
        .path(FilePath(path))
    }

    /// Runs `executable` to completion with no input and its standard output
    /// discarded. Standard error is read while the child runs, so a chatty child
    /// never blocks on a full pipe, and only its last `errorBytes` bytes are kept.
    /// Throws only when the child cannot be started; a failed child is a `Finished`
    /// whose status is not a success.
    ///
    /// A child still not finished after `slowAfter` (and after each `slowAfter`
    /// more) is reported to `onSlow`: its pid, its state in `/proc` (a zombie
    /// has exited and was not reaped) and whether its standard error has
    /// closed. A test suite that once stopped for a minute on a child "whose
    /// exit went unseen" leaves a line that says which it was.
    public static func run(
        _ executable: Executable, _ arguments: [String], workingDirectory: String? = nil, errorBytes: Int = 4096,
        slowAfter: Duration = .seconds(60), onSlow: @escaping @Sendable (String) -> Void = ChildProcess.reportSlow
    ) async throws -> Finished {
        let progress = Mutex<(pid: Int32?, errorClosed: Bool)>((nil, false))
        let name = "\(executable)"
        let watchdog = Task {
            var waited = Duration.zero
            while (try? await Task.sleep(for: slowAfter)) != nil {
                waited += slowAfter
                let (pid, errorClosed) = progress.withLock { $0 }
                onSlow(
                    "\(name) has not finished after \(waited): pid \(pid.map(String.init) ?? "not yet known"), "
                        + "state \(pid.map(processState) ?? "?"), standard error \(errorClosed ? "closed" : "open")")
            }
        }
        defer { watchdog.cancel() }
        let result = try await Subprocess.run(
            executable,
            arguments: Arguments(arguments),
            workingDirectory: workingDirectory.map { FilePath($0) },
            input: .none,
            output: .discarded,
            error: .sequence
        ) { execution in
            progress.withLock { $0.pid = execution.processIdentifier.value }
            var tail: [UInt8] = []
            for try await chunk in execution.standardError {
                chunk.withUnsafeBytes { tail.append(contentsOf: $0) }
                if tail.count > errorBytes { tail.removeFirst(tail.count - errorBytes) }
            }
            progress.withLock { $0.errorClosed = true }
            return tail
        }
        return Finished(status: result.terminationStatus, errorTail: String(decoding: result.closureResult, as: UTF8.self))
    }

    private static let logger = Logger(label: "wavelength.child")

    /// The default report of a slow child: a warning in the log.
    public static let reportSlow: @Sendable (String) -> Void = { logger.warning("\($0)") }

    /// A process's state letter from `/proc/PID/stat` (R running, S sleeping,
    /// Z zombie…), or "gone". A procfs read: no disk, no waiting.
    static func processState(_ pid: Int32) -> String {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")")
        else { return "gone" }
        return stat[stat.index(after: close)...].split(separator: " ").first.map(String.init) ?? "?"
    }
}
