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
    let every: Duration
    let metrics: ServerMetrics
    let logger: Logger

    func run() async throws {
        // A stop is graceful: the loop ends, then every lease is let go so
        // other nodes take these stations at once, not when they lapse.
        try? await cancelWhenGracefulShutdown { try await renewWhileRunning() }
        await waitForDepartures()
        do {
            try await leases.handOver()
            await directory.handedOver()
        } catch {
            logger.warning("Could not hand the stations over at the stop (they move when their leases lapse): \(error)")
        }
    }

    /// The live sockets were told goodbye just before this service stops
    /// (`LiveSockets` stops first): each station's last departure saves it
    /// going quiet, under the lease this node still holds. Only then are the
    /// leases let go; before, those saves were refused as another node's,
    /// and a stop left its stations on the air in storage with nobody
    /// listening. A socket that never closes doesn't hold the stop past a
    /// lease's length (its saves stay fenced by the epoch meanwhile).
    private func waitForDepartures() async {
        let deadline = ContinuousClock.now + every * 3
        while await directory.seatsConnections(), ContinuousClock.now < deadline {
            guard (try? await Task.sleep(for: .milliseconds(20))) != nil else { return }
        }
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
                let active = await directory.activeStations()
                let asked = ContinuousClock.now
                let lost = try await leases.renewLeases(active: active)
                let stored = ContinuousClock.now
                await directory.renewed(active: active, lost: lost)
                await directory.closeIdleFeeds()
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
