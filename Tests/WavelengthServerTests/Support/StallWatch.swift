import Dispatch
import Foundation
import NIOCore
import NIOPosix

/// Says on stderr when one of the executors every in-process test server
/// shares stops answering for seconds: NIO's event loops (every socket),
/// NIO's thread pool (bcrypt, file reads) and Swift's cooperative pool
/// (every handler). A test that then times out has its cause named in the
/// log instead of only "readTimeout". It watches from a thread of its own,
/// so it never waits on what it watches.
enum StallWatch {
    /// How late an answer must be to be reported.
    static let threshold: TimeInterval = 3

    /// Starts the watch once per process.
    static let start: Void = {
        let thread = Thread { watch() }
        thread.name = "stall-watch"
        thread.start()
    }()

    private static func watch() {
        while true {
            var index = 0
            for loop in MultiThreadedEventLoopGroup.singleton.makeIterator() {
                probe("event loop \(index)") { done in loop.execute(done) }
                index += 1
            }
            probe("NIO thread pool") { done in NIOThreadPool.singleton.submit { _ in done() } }
            probe("cooperative pool") { done in Task.detached { done() } }
            // The watch's own thread, never the cooperative pool's.
            Thread.sleep(forTimeInterval: 1)
        }
    }

    /// Sends `ping` and waits on this thread for its answer, reporting while
    /// it is late and when it finally comes.
    private static func probe(_ name: String, _ ping: (@escaping @Sendable () -> Void) -> Void) {
        let answered = DispatchSemaphore(value: 0)
        let sent = Date()
        ping { answered.signal() }
        while answered.wait(timeout: .now() + threshold) == .timedOut {
            report("\(name) has not answered for \(String(format: "%.1f", Date().timeIntervalSince(sent))) s")
        }
        let late = Date().timeIntervalSince(sent)
        if late >= threshold { report("\(name) answered after \(String(format: "%.1f", late)) s") }
    }

    private static func report(_ line: String) {
        FileHandle.standardError.write(Data("[stall-watch \(Date())] \(line)\n".utf8))
    }
}
