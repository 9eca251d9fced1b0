import Logging
import ServiceLifecycle
import Synchronization

/// A node leaving a cluster: at a stop, `/health` answers 503 for `period`
/// while everything else is still served, so the load balancer's health
/// checks take the node out before its sockets close and its stations are
/// handed over. A period of zero (one server, nobody balancing) stops at once.
public final class Drain: Sendable {
    public let period: Duration
    private let draining = Atomic<Bool>(false)

    public init(period: Duration) { self.period = period }

    var isDraining: Bool { draining.load(ordering: .relaxed) }

    func begin() { draining.store(true, ordering: .relaxed) }
}

/// Runs after the application in the stop order (a group stops its services
/// last first): the stop drains, then the application stops.
struct DrainService: Service {
    let drain: Drain
    let logger: Logger

    func run() async throws {
        // Thrown on cancellation: a forced stop has no drain.
        guard (try? await gracefulShutdown()) != nil else { return }
        drain.begin()
        logger.notice("Draining: /health answers 503 for \(drain.period) before the server stops")
        try? await Task.sleep(for: drain.period)
    }
}
