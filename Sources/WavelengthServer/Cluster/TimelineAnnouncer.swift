import Logging
import ServiceLifecycle
import Synchronization
import WavelengthCore
import WavelengthStore

/// Tells the cluster each station whose timeline this node saved, so nodes
/// relaying it (`StationRelay`) read it again. A hub hands the station over
/// without waiting (its ack waits for its own save only) and signals go out
/// one at a time, in the order of the saves. Runs only when several nodes
/// share the store.
final class TimelineAnnouncer: Service, Sendable {
    /// Where saves wait while the announcer runs (a server may run again on
    /// the same services: each run reads a stream of its own).
    private let waiting = Mutex<AsyncStream<StationID>.Continuation?>(nil)
    let signals: any ClusterSignals
    let logger: Logger

    init(signals: any ClusterSignals, logger: Logger) {
        self.signals = signals
        self.logger = logger
    }

    /// The hub saved `station`'s timeline. (While the server isn't running,
    /// a save has nobody to tell: relays of it reconnect when it starts.)
    func saved(_ station: StationID) {
        waiting.withLock { _ = $0?.yield(station) }
    }

    func run() async throws {
        // Bounded: a store too slow to keep up drops the oldest.
        let (saves, continuation) = AsyncStream.makeStream(of: StationID.self, bufferingPolicy: .bufferingNewest(10_000))
        waiting.withLock { $0 = continuation }
        defer {
            waiting.withLock { $0 = nil }
            continuation.finish()
        }
        let (signals, logger) = (signals, logger)
        await cancelWhenGracefulShutdown {
            var failing = false
            for await station in saves {
                do {
                    try await signals.publish(ClusterSignal(kind: .timelineChanged, stationID: station, node: ""))
                    failing = false
                } catch {
                    if !failing { logger.warning("Could not tell the other nodes of station \(station)'s timeline: \(error)") }
                    failing = true
                }
            }
        }
    }
}
