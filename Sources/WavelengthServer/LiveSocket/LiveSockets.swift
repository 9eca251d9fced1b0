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

    func run() async throws {
        // Returns when the server begins to stop (or this task is cancelled).
        try? await gracefulShutdown()
        closeAll()
    }

    func closeAll() {
        for channel in open.withLock({ Array($0.values) }) {
            channel.pipeline.fireUserInboundEventTriggered(LiveSocketEvent.end(.goingAway, reason: nil))
        }
    }
}
