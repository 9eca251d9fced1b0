import Logging
import NIOCore
import WavelengthCore
import WavelengthWire

/// One station's radio stream: the encoder's recent output, shared by every
/// stream listener, and what they wait on.
///
/// Tree in the forest: the encoder runs only while someone listens to the
/// stream. The first listener starts it (and the stream joins the station
/// like any listener, so the station plays); a grace period after the last
/// one leaves, it stops.
actor StationStream {
    /// Icecast's burst-on-connect: a new listener gets this much at once.
    static let burst = 64 * 1_024
    /// How far a listener may fall behind before it is let go (Icecast's
    /// default queue size).
    static let ringBytes = 512 * 1_024

    let stationID: StationID
    private var ring = StreamRing<ByteBuffer>(capacity: StationStream.ringBytes)
    /// The title of the song the encoder is fed now.
    private(set) var title = IcyMetadata(artist: nil, title: nil)
    private var listeners = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var encoder: Task<Void, Never>?
    private var stopping: Task<Void, Never>?
    private let grace: Duration
    private let start: @Sendable (StationStream) -> Task<Void, Never>
    private let logger: Logger

    /// `start` begins the encoder; its task ends when cancelled.
    init(stationID: StationID, grace: Duration, logger: Logger, start: @escaping @Sendable (StationStream) -> Task<Void, Never>) {
        self.stationID = stationID
        self.grace = grace
        self.logger = logger
        self.start = start
    }

    var isEncoding: Bool { encoder != nil }
    var listenerCount: Int { listeners }

    /// A new listener: where it starts reading.
    func join() -> UInt64 {
        listeners += 1
        stopping?.cancel()
        stopping = nil
        if encoder == nil {
            logger.info("Stream of station \(stationID) starts its encoder")
            encoder = start(self)
        }
        return ring.joinPosition(burst: Self.burst)
    }

    func leave() {
        listeners = max(0, listeners - 1)
        guard listeners == 0, stopping == nil else { return }
        let grace = self.grace
        stopping = Task { [weak self] in
            guard (try? await Task.sleep(for: grace)) != nil else { return }
            await self?.stopIfNobodyListens()
        }
    }

    private func stopIfNobodyListens() {
        stopping = nil
        guard listeners == 0, let encoder else { return }
        logger.info("Stream of station \(stationID) stops its encoder: nobody listens")
        encoder.cancel()
        self.encoder = nil
        ring = StreamRing(capacity: Self.ringBytes)
        wakeAll()
    }

    /// The encoder's output.
    func append(_ buffer: ByteBuffer) {
        ring.append(buffer, size: buffer.readableBytes)
        wakeAll()
    }

    func nowPlaying(_ title: IcyMetadata) {
        self.title = title
    }

    /// The encoder ended by itself (ffmpeg failed): listeners are let go.
    func encoderEnded() {
        encoder = nil
        ring = StreamRing(capacity: Self.ringBytes)
        wakeAll()
    }

    enum Next: Sendable {
        case chunks([ByteBuffer], end: UInt64, title: IcyMetadata)
        /// Too far behind, or the stream stopped: the listener is let go.
        case gone
    }

    /// What follows `position`, waiting for it if there is nothing yet.
    func next(after position: UInt64) async -> Next {
        while true {
            guard encoder != nil, !Task.isCancelled else { return .gone }
            switch ring.read(from: position) {
            case .behind:
                return .gone
            case .chunks(let stored, let skip):
                var buffers = stored.map(\.chunk)
                buffers[0].moveReaderIndex(forwardBy: skip)
                return .chunks(buffers, end: ring.end, title: title)
            case .upToDate:
                await withCheckedContinuation { waiters.append($0) }
            }
        }
    }

    private func wakeAll() {
        let waiting = waiters
        waiters.removeAll()
        for waiter in waiting { waiter.resume() }
    }
}
