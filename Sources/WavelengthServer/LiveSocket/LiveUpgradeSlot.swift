import NIOCore
import Synchronization

/// Where a route that takes over its connection leaves what will serve it
/// afterwards: a WebSocket upgrade (`LiveUpgradeChannel` calls the starter
/// on the connection's event loop once the 101 answer is on its way), or a
/// radio stream (`StreamConnection` calls it once the answer's head is).
///
/// Each request context has its own slot, so a route can only claim the
/// upgrade of the request it is answering.
final class LiveUpgradeSlot: Sendable {
    /// Installs the connection's handlers; runs on its event loop, right
    /// after NIO's WebSocket frame encoder and decoder are in place.
    typealias Starter = @Sendable (any Channel) throws -> Void

    private let starter = Mutex<Starter?>(nil)
    private let streamConnection = Mutex(false)

    /// Whether the connection can become a stream listener: it is one
    /// `StreamConnection` serves, not a WebSocket upgrade's or a kept-alive one.
    var takesStream: Bool { streamConnection.withLock { $0 } }

    /// Said by `StreamConnection` before it runs the route.
    func offerStream() {
        streamConnection.withLock { $0 = true }
    }

    func claim(_ start: @escaping Starter) {
        starter.withLock { $0 = start }
    }

    func take() -> Starter? {
        starter.withLock { slot in
            defer { slot = nil }
            return slot
        }
    }
}
