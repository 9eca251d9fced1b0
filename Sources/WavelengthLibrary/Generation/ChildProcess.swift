import Subprocess
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
    public static func run(_ executable: Executable, _ arguments: [String], errorBytes: Int = 4096) async throws -> Finished {
        let result = try await Subprocess.run(
            executable,
            arguments: Arguments(arguments),
            input: .none,
            output: .discarded,
            error: .sequence
        ) { execution in
            var tail: [UInt8] = []
            for try await chunk in execution.standardError {
                chunk.withUnsafeBytes { tail.append(contentsOf: $0) }
                if tail.count > errorBytes { tail.removeFirst(tail.count - errorBytes) }
            }
            return tail
        }
        return Finished(status: result.terminationStatus, errorTail: String(decoding: result.closureResult, as: UTF8.self))
    }
}
