import Logging
import Synchronization
import WavelengthCore
import WavelengthLibrary
import WavelengthStore

/// The radio streams of the stations someone listens to by stream, and the
/// limit on stream connections per address (a player that reconnects in a
/// loop, or one address holding hundreds, can't take every slot).
final class StreamDirectory: Sendable {
    static let maxPerAddress = 16

    private let streams = Mutex<[StationID: StationStream]>([:])
    private let slots = AddressSlots(perAddress: StreamDirectory.maxPerAddress)
    private let tracks: any TrackRepository
    private let roots: LibraryRoots
    private let clock: any ServerClock
    private let grace: Duration
    private let stallTimeout: Duration
    private let pacing: Pacing
    /// The live sources a station's stream plays during a live show.
    private let sources: LiveSources?
    private let clips: ClipStore?
    let metrics: ServerMetrics
    private let logger: Logger

    init(
        tracks: any TrackRepository, roots: LibraryRoots, clock: any ServerClock, grace: Duration,
        stallTimeout: Duration, sources: LiveSources? = nil, clips: ClipStore? = nil, metrics: ServerMetrics,
        logger: Logger, pacing: Pacing = .system
    ) {
        self.pacing = pacing
        self.sources = sources
        self.clips = clips
        self.metrics = metrics
        self.tracks = tracks
        self.roots = roots
        self.clock = clock
        self.grace = grace
        self.stallTimeout = stallTimeout
        self.logger = logger
    }

    /// The streams in use, or stopping within their grace period (for status
    /// pages and metrics).
    var all: [StationID: StationStream] { streams.withLock { $0 } }

    /// The station's stream, made on first use, and again after it retired.
    func stream(for hub: StationHub) -> StationStream {
        let id = hub.id
        return streams.withLock { streams in
            if let stream = streams[id] { return stream }
            let encoder = StreamEncoder(
                stationID: id, hub: hub, tracks: tracks, roots: roots, sources: sources, clips: clips, clock: clock,
                logger: logger, pacing: pacing)
            let stream = StationStream(
                stationID: id, grace: grace, stallTimeout: stallTimeout, logger: logger, metrics: metrics,
                report: { change in Task { await hub.streamAudience(change) } },
                start: { stream in Task { await encoder.run(into: stream) } },
                retire: { [weak self] stream in self?.forget(stream, of: id) }, pacing: pacing, wall: clock)
            streams[id] = stream
            return stream
        }
    }

    /// A stream stopped for want of listeners: forgotten, unless the
    /// station already has a newer one.
    private func forget(_ stream: StationStream, of id: StationID) {
        streams.withLock { streams in
            if streams[id] === stream { streams[id] = nil }
        }
    }

    /// Takes one of the address's stream slots, nil when all are taken; the
    /// answer that holds it gives it back when it is done with.
    func reserve(address: String) -> AddressSlots.Slot? {
        slots.reserve(address: address)
    }
}
