import Dispatch
import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// Says on stderr when one of the executors every in-process test server
/// shares stops answering for seconds: NIO's event loops (every socket),
/// NIO's thread pool (bcrypt, file reads) and Swift's cooperative pool
/// (every handler). A test that then times out has its cause named in the
/// log instead of only "readTimeout". It runs on a dispatch queue of its
/// own and never blocks: each second it pings whatever has answered its
/// last ping, and reports those still silent after `threshold`.
enum StallWatch {
    /// How late an answer must be to be reported.
    static let threshold: TimeInterval = 3

    private static let queue = DispatchQueue(label: "stall-watch")
    /// The pings in flight: when each was sent, and when it was last reported late.
    private static let waiting = Mutex<[String: (sent: Date, reported: Date?)]>([:])

    /// Starts the watch once per process.
    static let start: Void = {
        queue.async { tick() }
    }()

    private static func tick() {
        var index = 0
        for loop in MultiThreadedEventLoopGroup.singleton.makeIterator() {
            probe("event loop \(index)") { done in loop.execute(done) }
            index += 1
        }
        probe("NIO thread pool") { done in NIOThreadPool.singleton.submit { _ in done() } }
        probe("cooperative pool") { done in Task.detached { done() } }
        queue.asyncAfter(deadline: .now() + 1) { tick() }
    }

    /// What a probe does this second.
    private enum Step { case ping, wait, report(TimeInterval) }

    /// Pings `name` unless its last ping is still unanswered; then says how long it has been.
    private static func probe(_ name: String, _ ping: (@escaping @Sendable () -> Void) -> Void) {
        let now = Date()
        let step: Step = waiting.withLock { waiting in
            guard let pending = waiting[name] else {
                waiting[name] = (sent: now, reported: nil)
                return .ping
            }
            guard now.timeIntervalSince(pending.sent) >= threshold,
                  now.timeIntervalSince(pending.reported ?? pending.sent) >= threshold else { return .wait }
            waiting[name]?.reported = now
            return .report(now.timeIntervalSince(pending.sent))
        }
        switch step {
        case .ping: ping { answered(name, sent: now) }
        case .wait: break
        case .report(let silent): report("\(name) has not answered for \(String(format: "%.1f", silent)) s")
        }
    }

    private static func answered(_ name: String, sent: Date) {
        waiting.withLock { _ = $0.removeValue(forKey: name) }
        let late = Date().timeIntervalSince(sent)
        if late >= threshold { report("\(name) answered after \(String(format: "%.1f", late)) s") }
    }

    private static func report(_ line: String) {
        FileHandle.standardError.write(Data("[stall-watch \(Date())] \(line)\n".utf8))
    }
}
