import Hummingbird
import Logging
import ServiceLifecycle

/// Runs the server until SIGTERM or SIGINT, then stops it gracefully: it
/// stops accepting, live sockets say goodbye (1001), and radio streams end.
/// A connection that still holds on after `grace` (a player that stopped
/// reading with its stream's writes stalled) is cut: the stop is escalated
/// to cancellation, so a stop never waits on a client. (Before, one radio
/// player connected kept a SIGTERM'd server up for good.)
///
/// With a `drain` period, the stop first drains (see `Drain`); the grace
/// counts from the signal, so it should be longer than the drain.
public func runUntilStopped(
    _ app: some ApplicationProtocol, grace: Duration, drain: Drain = Drain(period: .zero), logger: Logger
) async throws {
    let draining: [any Service] = drain.period > .zero ? [DrainService(drain: drain, logger: logger)] : []
    var configuration = ServiceGroupConfiguration(
        services: [app] + draining, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
    configuration.maximumGracefulShutdownDuration = grace
    try await ServiceGroup(configuration: configuration).run()
}
