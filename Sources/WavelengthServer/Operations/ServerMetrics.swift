import Prometheus
import Synchronization
import WavelengthCore

/// The server's figures for Prometheus, through swift-prometheus's registry
/// directly: each series is made with its help text, which `promtool check
/// metrics` asks of every one (swift-metrics' factory registers them with
/// none). Each server has its own registry, not a process-wide one, as a
/// test process starts many servers.
///
/// Counters move as things happen; the listener and encoder gauges are read
/// from the stations when Prometheus scrapes (`refresh`), so a quiet station
/// costs nothing between scrapes.
final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    /// Commands the stations applied (duplicates not counted).
    let commands: Counter
    /// Bytes of audio written to stream listeners.
    let streamBytes: Counter
    /// Listeners let go for falling too far behind (app) or stalling (stream).
    let droppedApp: Counter
    let droppedStream: Counter
    private let encoders: Gauge
    /// How long each renewal of this node's station leases took, from
    /// asking the stations to the store's answer (near the lease's length,
    /// stations are about to move to another node).
    let leaseRenewal: DurationHistogram
    /// The per-station gauges last set, by station and kind, so a station
    /// that went quiet is dropped from the page rather than left at its
    /// last figure.
    private let stationGauges = Mutex<[String: Gauge]>([:])

    private static var commandsName: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "wavelength", metricName: "commands", unitName: "total",
            helpText: "Commands the stations applied (a command sent again with its id is not counted twice).")
    }
    private static var streamBytesName: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "wavelength", metricName: "stream_bytes", unitName: "total",
            helpText: "Bytes of audio written to radio stream listeners.")
    }
    private static var droppedName: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "wavelength", metricName: "dropped_listeners", unitName: "total",
            helpText: "Listeners let go for falling too far behind (app) or stalling (stream).")
    }
    private static var encodersName: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "wavelength", metricName: "stream", unitName: "encoders",
            helpText: "Radio stream encoders running now (one per station someone hears by stream).")
    }
    private static var leaseRenewalName: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "wavelength", metricName: "lease_renewal", unitName: "seconds",
            helpText: "How long each renewal of this node's station leases took (several nodes only).")
    }
    private static var listenersName: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "wavelength", metricName: "listeners", unitName: "",
            helpText: "Listeners of each station with an audience now, by kind (people counts each person once).")
    }

    init() {
        commands = registry.makeCounter(descriptor: Self.commandsName, labels: [])
        streamBytes = registry.makeCounter(descriptor: Self.streamBytesName, labels: [])
        droppedApp = registry.makeCounter(descriptor: Self.droppedName, labels: [("kind", "app")])
        droppedStream = registry.makeCounter(descriptor: Self.droppedName, labels: [("kind", "stream")])
        encoders = registry.makeGauge(descriptor: Self.encodersName)
        leaseRenewal = registry.makeDurationHistogram(
            descriptor: Self.leaseRenewalName,
            buckets: [.milliseconds(10), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
                .seconds(1), .seconds(2), .seconds(3), .seconds(5)])
    }

    /// Sets the gauges from the stations with an audience now, and the
    /// number of stream encoders running.
    func refresh(audiences: [(StationID, Audience.Counts)], encodersRunning: Int) {
        encoders.set(Int64(encodersRunning))
        var current: [String: (StationID, String, Int)] = [:]
        for (station, counts) in audiences {
            for (kind, value) in [
                ("people", counts.listeners), ("app", counts.app), ("stream", counts.stream), ("relay", counts.relays),
                ("bot", counts.bots),
            ] {
                current["\(station)|\(kind)"] = (station, kind, value)
            }
        }
        stationGauges.withLock { gauges in
            for (key, gauge) in gauges where current[key] == nil {
                registry.unregisterGauge(gauge)
                gauges[key] = nil
            }
            for (key, (station, kind, value)) in current {
                let gauge =
                    gauges[key]
                    ?? registry.makeGauge(descriptor: Self.listenersName, labels: [("station", station), ("kind", kind)])
                gauges[key] = gauge
                gauge.set(Int64(value))
            }
        }
    }

    /// The page Prometheus reads, in its text format.
    func page() -> String {
        registry.emitToString()
    }
}
