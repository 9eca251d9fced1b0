import Logging
import ServiceLifecycle
import WavelengthCore
import WavelengthStore

/// Tells the cluster each station whose timeline this node saved, so nodes
/// relaying it (`StationRelay`) read it again. A hub hands the station over
/// without waiting (its ack waits for its own save only) and signals go out
/// one at a time, in the order of the saves. Runs only when several nodes
/// share the store.
struct TimelineAnnouncer: Service {
    private let saves: AsyncStream<StationID>
    private let waiting: AsyncStream<StationID>.Continuation
    let signals: any ClusterSignals
    let logger: Logger

    init(signals: any ClusterSignals, logger: Logger) {
        // Bounded: a store too slow to keep up drops the oldest (a relay
        // also reads the station at its poll, so nothing is lost for good).
        (saves, waiting) = AsyncStream.makeStream(of: StationID.self, bufferingPolicy: .bufferingNewest(10_000))
        self.signals = signals
        self.logger = logger
    }

    /// The hub saved `station`'s timeline.
    func saved(_ station: StationID) {
        waiting.yield(station)
    }

    func run() async throws {
        let (saves, signals, logger) = (saves, signals, logger)
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
