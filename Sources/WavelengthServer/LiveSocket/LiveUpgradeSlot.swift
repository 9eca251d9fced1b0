import NIOCore
import Synchronization

/// Where a route that accepts a WebSocket upgrade leaves what will serve the
/// connection afterwards. `LiveUpgradeChannel` runs the route, takes the
/// starter from here, and calls it on the connection's event loop once the
/// 101 answer is on its way.
///
/// Each request context has its own slot, so a route can only claim the
/// upgrade of the request it is answering.
final class LiveUpgradeSlot: Sendable {
    /// Installs the connection's handlers; runs on its event loop, right
    /// after NIO's WebSocket frame encoder and decoder are in place.
    typealias Starter = @Sendable (any Channel) throws -> Void

    private let starter = Mutex<Starter?>(nil)

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
