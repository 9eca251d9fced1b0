import NIOCore
import NIOWebSocket
import ServiceLifecycle
import Synchronization

/// Every open live WebSocket, so a server that stops can say goodbye.
///
/// Live connections keep no task (see `LiveUpgradeChannel`), so the HTTP
/// server's graceful shutdown, which waits for connection tasks, never sees
/// them. This service waits for the shutdown and then sends each one a
/// close frame (1001, going away); clients reconnect to the next server.
final class LiveSockets: Service, Sendable {
    private let open = Mutex<[ObjectIdentifier: any Channel]>([:])

    func add(_ channel: any Channel) {
        let key = ObjectIdentifier(channel)
        open.withLock { $0[key] = channel }
        channel.closeFuture.whenComplete { [weak self] _ in
            _ = self?.open.withLock { $0.removeValue(forKey: key) }
        }
    }

    var count: Int { open.withLock { $0.count } }

    /// How long a stop waits for the goodbyes to be answered.
    static let goodbyeWait: TimeAmount = .seconds(5)

    func run() async throws {
        // Returns when the server begins to stop (or this task is cancelled).
        try? await gracefulShutdown()
        closeAll()
        // Stay until each close frame is answered (or its socket's handler
        // gives up), at most `goodbyeWait`: a process that ended at once
        // left close frames unsent on event loops busy with a command
        // flood, and its sockets were reset with their unread input, so
        // some listeners saw 1006 instead of 1001.
        await closed(within: Self.goodbyeWait)
    }

    /// Returns once every socket open now has closed, or after `limit`.
    func closed(within limit: TimeAmount) async {
        let channels = open.withLock { Array($0.values) }
        guard let loop = channels.first?.eventLoop else { return }
        let all = EventLoopFuture.andAllComplete(channels.map(\.closeFuture), on: loop)
        let once = Once()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            all.whenComplete { _ in if once.first() { done.resume() } }
            loop.scheduleTask(in: limit) { if once.first() { done.resume() } }
        }
    }

    func closeAll() {
        for channel in open.withLock({ Array($0.values) }) {
            channel.pipeline.fireUserInboundEventTriggered(LiveSocketEvent.end(.goingAway, reason: nil))
        }
    }
}

/// True the first time only: two callbacks race to resume one continuation.
private final class Once: Sendable {
    private let taken = Mutex(false)

    func first() -> Bool {
        taken.withLock { taken in
            defer { taken = true }
            return !taken
        }
    }
}
