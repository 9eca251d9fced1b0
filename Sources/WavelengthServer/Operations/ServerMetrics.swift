import CoreMetrics
import Prometheus
import Synchronization
import WavelengthCore

/// The server's figures for Prometheus, through swift-metrics with
/// swift-prometheus's factory. Each server has its own registry (not the
/// process-wide bootstrap, which can happen only once and would be shared by
/// every server a test process starts).
///
/// Counters move as things happen; the listener and encoder gauges are read
/// from the stations when Prometheus scrapes (`refresh`), so a quiet station
/// costs nothing between scrapes.
final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    /// Commands the stations applied (duplicates not counted).
    let commands: CoreMetrics.Counter
    /// Bytes of audio written to stream listeners.
    let streamBytes: CoreMetrics.Counter
    /// Listeners let go for falling too far behind (app) or stalling (stream).
    let droppedApp: CoreMetrics.Counter
    let droppedStream: CoreMetrics.Counter
    private let encoders: CoreMetrics.Gauge
    /// The per-station gauges last set, by station and kind, so a station
    /// that went quiet is dropped from the page rather than left at its
    /// last figure.
    private let stationGauges = Mutex<[String: CoreMetrics.Gauge]>([:])

    init() {
        factory = PrometheusMetricsFactory(registry: registry)
        commands = CoreMetrics.Counter(label: "wavelength_commands_total", factory: factory)
        streamBytes = CoreMetrics.Counter(label: "wavelength_stream_bytes_total", factory: factory)
        droppedApp = CoreMetrics.Counter(
            label: "wavelength_dropped_listeners_total", dimensions: [("kind", "app")], factory: factory)
        droppedStream = CoreMetrics.Counter(
            label: "wavelength_dropped_listeners_total", dimensions: [("kind", "stream")], factory: factory)
        encoders = CoreMetrics.Gauge(label: "wavelength_stream_encoders", factory: factory)
    }

    /// Sets the gauges from the stations with an audience now, and the
    /// number of stream encoders running.
    func refresh(audiences: [(StationID, Audience.Counts)], encodersRunning: Int) {
        encoders.record(encodersRunning)
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
                gauge.destroy()
                gauges[key] = nil
            }
            for (key, (station, kind, value)) in current {
                let gauge =
                    gauges[key]
                    ?? CoreMetrics.Gauge(
                        label: "wavelength_listeners", dimensions: [("station", station), ("kind", kind)], factory: factory)
                gauges[key] = gauge
                gauge.record(value)
            }
        }
    }

    /// The page Prometheus reads, in its text format.
    func page() -> String {
        registry.emitToString()
    }
}
