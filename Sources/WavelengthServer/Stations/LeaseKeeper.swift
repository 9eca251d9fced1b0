import Logging
import ServiceLifecycle
import WavelengthCore
import WavelengthStore

/// Renews the leases of the stations someone listens to on this node, and
/// lets go of the quiet ones' (so a quiet station holds no lease and may
/// wake on any node). Runs only when several nodes share the store.
struct LeaseKeeper: Service {
    let directory: StationDirectory
    let leases: any StationLeases
    let presence: any ListenerPresence
    let every: Duration
    let metrics: ServerMetrics
    let logger: Logger

    func run() async throws {
        // A stop is graceful: the loop ends, then every lease is let go so
        // other nodes take these stations at once, not when they lapse.
        try? await cancelWhenGracefulShutdown { try await renewWhileRunning() }
        do {
            try await leases.handOver()
            await directory.handedOver()
        } catch {
            logger.warning("Could not hand the stations over at the stop (they move when their leases lapse): \(error)")
        }
    }

    /// How long a node's report of its listeners stands: a node that died
    /// stops counting after this (one that lives reports at every renewal).
    private var presenceSeconds: Double { max(10, 3 * Double(every.milliseconds) / 1000) }

    private func readPresence() async throws {
        let others = try await presence.presence(of: await directory.presenceWatched())
        let report = await directory.presenceRead(others)
        try await presence.reportPresence(report, for: presenceSeconds)
    }

    private func renewWhileRunning() async throws {
        var failing = false
        var lastSlowSaid = ContinuousClock.now - every * 10
        // At a fixed rate, not a pause after each renewal: a renewal slowed
        // by a loaded machine doesn't push the next one back too.
        var next = ContinuousClock.now
        while true {
            next = max(next + every, .now)
            try await Task.sleep(until: next, clock: .continuous)
            do {
                let started = ContinuousClock.now
                // Listeners on other nodes first: a station they hear through
                // a relay is seated, so it counts as listened to here.
                try await readPresence()
                let active = await directory.activeStations()
                let asked = ContinuousClock.now
                let lost = try await leases.renewLeases(active: active)
                let stored = ContinuousClock.now
                await directory.renewed(active: active, lost: lost)
                await directory.checkRelays()
                let took = ContinuousClock.now - started
                metrics.leaseRenewal.record(took)
                // Late renewals are how leases lapse under a running node:
                // said at most every ten renewals.
                if took > every, stored - lastSlowSaid > every * 10 {
                    lastSlowSaid = stored
                    logger.warning(
                        "Renewing \(active.count) station leases took \(took) (asking the stations \(asked - started), the store \(stored - asked)); renewals are due every \(every)")
                }
                if failing { logger.notice("Station leases are renewed again") }
                failing = false
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                // Storage is out: the leases lapse, and saves are refused
                // (fenced) until it returns. Said once, not every tick.
                if !failing { logger.error("Could not renew station leases: \(error)") }
                failing = true
            }
        }
    }
}
