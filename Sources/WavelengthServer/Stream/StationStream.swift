import Foundation
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
///
/// Honest counts: each listener is reported to the station's audience as
/// it comes and goes. One whose write has not finished for `stallTimeout`
/// (a player that vanished without closing: its socket's buffers are full
/// and no ACK comes) stops counting then, not when TCP gives up minutes
/// later, and is let go when its write ends.
actor StationStream {
    /// Icecast's burst-on-connect: a new listener gets this much at once.
    static let burst = 64 * 1_024
    /// The burst of a player that asks to be near the live edge (`?edge=1`,
    /// the app's player of a live show): half a second at 128 kbps, so
    /// listeners who join at different moments hear the show at nearly
    /// the same moment.
    static let edgeBurst = 8 * 1_024
    /// How far a listener may fall behind before it is let go (Icecast's
    /// default queue size).
    static let ringBytes = 512 * 1_024

    let stationID: StationID
    private var ring = StreamRing<Chunk>(capacity: StationStream.ringBytes)
    /// The title of the song the encoder is fed now.
    private(set) var title = IcyMetadata(artist: nil, title: nil)

    /// Some of the encoder's output, with the title it was made under. A
    /// listener behind the live edge gets the title of the audio it is
    /// sent, as Icecast ties metadata to its place in the stream: with the
    /// title of the moment instead, one who fell behind across a short
    /// song (a 4 s voice clip) never saw its title at all.
    struct Chunk: Sendable {
        var buffer: ByteBuffer
        let title: IcyMetadata
    }
    /// One player on the stream.
    struct Listener {
        let identity: ListenerIdentity
        let kind: ListenerKind
        /// When its current write began; nil while it waits for audio.
        /// When its write began, on `pacing`'s clock.
        var writingSince: Duration?
        /// It stopped counting: its write stalled.
        var stalled = false
    }

    private var listeners: [UInt64: Listener] = [:]
    private var nextTicket: UInt64 = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var encoder: Task<Void, Never>?
    private var stopping: Task<Void, Never>?
    private var sweeper: Task<Void, Never>?
    private let grace: Duration
    private let stallTimeout: Duration
    /// The clock the grace and the stall sweep run on, and the wall clock
    /// `startedAt` is read from.
    private let pacing: Pacing
    private let wall: any ServerClock
    private let start: @Sendable (StationStream) -> Task<Void, Never>
    private let report: @Sendable (StationMachine.StreamAudienceChange) -> Void
    private let logger: Logger
    /// Listeners let go for falling behind or stalling, since the start.
    private(set) var dropped = 0
    private let metrics: ServerMetrics

    /// Told when the stream stops for want of listeners, if it retires
    /// then: the directory forgets it, so a server whose stations were each
    /// streamed once keeps no stream for them.
    private let retire: (@Sendable (StationStream) -> Void)?
    /// Stopped and forgotten: it takes no listener again (`join` is nil), and
    /// the next one gets a new stream from the directory.
    private(set) var retired = false

    /// `start` begins the encoder; its task ends when cancelled. `report`
    /// tells the station's audience who left or stalled. With `retire`, the
    /// stream retires when it stops (a station's stream); without, it can
    /// start again (a live show's relay, which lives as long as its source).
    init(
        stationID: StationID, grace: Duration, stallTimeout: Duration, logger: Logger, metrics: ServerMetrics,
        report: @escaping @Sendable (StationMachine.StreamAudienceChange) -> Void,
        start: @escaping @Sendable (StationStream) -> Task<Void, Never>,
        retire: (@Sendable (StationStream) -> Void)? = nil,
        pacing: Pacing = .system, wall: any ServerClock = SystemClock()
    ) {
        self.pacing = pacing
        self.wall = wall
        self.retire = retire
        self.stationID = stationID
        self.grace = grace
        self.stallTimeout = stallTimeout
        self.logger = logger
        self.report = report
        self.start = start
        self.metrics = metrics
    }

    var isEncoding: Bool { encoder != nil }
    /// Stream connections open now, stalled ones included.
    var listenerCount: Int { listeners.count }

    /// A new listener: its ticket, and where it starts reading; nil once the
    /// stream retired (ask the directory for the station's stream again). (The caller
    /// tells the station it arrived, before its first byte goes out; its
    /// departure is reported from here.)
    func join(_ identity: ListenerIdentity, kind: ListenerKind, burst: Int = StationStream.burst) -> (ticket: UInt64, position: UInt64)? {
        guard !retired else { return nil }
        nextTicket += 1
        listeners[nextTicket] = Listener(identity: identity, kind: kind)
        stopping?.cancel()
        stopping = nil
        if encoder == nil {
            logger.info("Stream of station \(stationID) starts its encoder")
            encoder = start(self)
            startedAt = Date(timeIntervalSince1970: Double(wall.now()) / 1000)
        }
        if sweeper == nil {
            let every = min(stallTimeout / 4, .seconds(5))
            let sleep = pacing.sleep
            sweeper = Task { [weak self] in
                while (try? await sleep(every)) != nil {
                    await self?.sweep()
                }
            }
        }
        return (nextTicket, ring.joinPosition(burst: burst))
    }

    func leave(_ ticket: UInt64) {
        guard let listener = listeners.removeValue(forKey: ticket) else { return }
        if !listener.stalled { report(.left(listener.identity, listener.kind)) }
        guard listeners.isEmpty else { return }
        sweeper?.cancel()
        sweeper = nil
        guard stopping == nil else { return }
        let (grace, sleep) = (self.grace, pacing.sleep)
        stopping = Task { [weak self] in
            guard (try? await sleep(grace)) != nil else { return }
            await self?.stopIfNobodyListens()
        }
    }

    /// Listeners whose write has not finished for `stallTimeout` stop counting.
    private func sweep() {
        let now = pacing.elapsed()
        for (ticket, listener) in listeners where !listener.stalled {
            guard let since = listener.writingSince, now - since > stallTimeout else { continue }
            listeners[ticket]?.stalled = true
            dropped += 1
            metrics.droppedStream.increment()
            report(.left(listener.identity, listener.kind))
            logger.notice("A stream listener of station \(stationID) stalled: its write did not finish in \(stallTimeout)")
        }
    }

    private func stopIfNobodyListens() {
        stopping = nil
        guard listeners.isEmpty, let encoder else { return }
        logger.info("Stream of station \(stationID) stops its encoder: nobody listens")
        encoder.cancel()
        self.encoder = nil
        startedAt = nil
        ring = StreamRing(capacity: Self.ringBytes)
        wakeAll()
        if let retire {
            retired = true
            retire(self)
        }
    }

    /// The encoder's output.
    func append(_ buffer: ByteBuffer) {
        ring.append(Chunk(buffer: buffer, title: title), size: buffer.readableBytes)
        for tap in taps.values { tap.yield(buffer) }
        wakeAll()
    }

    /// Those who take every chunk from now on without being a listener:
    /// the station's stream encoder decoding a live source's relay.
    private var taps: [UInt64: AsyncStream<ByteBuffer>.Continuation] = [:]
    private var nextTap: UInt64 = 0

    /// Every chunk from now on, until the stream stops or the taker lets
    /// go; a taker that falls behind loses the oldest. For a live source's
    /// relay, whose source feeds it until it ends.
    func tap() -> AsyncStream<ByteBuffer> {
        let (chunks, continuation) = AsyncStream<ByteBuffer>.makeStream(bufferingPolicy: .bufferingNewest(256))
        // A relay's "encoder" (its source) feeds it whether or not anyone
        // plays it directly; its end (`encoderEnded`) ends the taps.
        nextTap += 1
        let id = nextTap
        taps[id] = continuation
        continuation.onTermination = { _ in Task { await self.untap(id) } }
        return chunks
    }

    private func untap(_ id: UInt64) {
        taps[id] = nil
    }

    func nowPlaying(artist: String?, title: String?) {
        self.title = IcyMetadata(artist: artist, title: title)
        song = (artist, title)
    }

    /// The song the encoder is fed now, for status pages.
    private(set) var song: (artist: String?, title: String?) = (nil, nil)
    /// When the encoder last started, while it runs.
    private(set) var startedAt: Date?

    /// The encoder ended by itself (ffmpeg failed): listeners are let go.
    func encoderEnded() {
        encoder = nil
        startedAt = nil
        for tap in taps.values { tap.finish() }
        taps = [:]
        ring = StreamRing(capacity: Self.ringBytes)
        wakeAll()
    }

    enum Next: Sendable {
        case chunks([Chunk], end: UInt64)
        /// Too far behind, or the stream stopped: the listener is let go.
        case gone
    }

    /// What follows `position` for listener `ticket` (its last write
    /// finished), waiting for it if there is nothing yet.
    func next(_ ticket: UInt64, after position: UInt64) async -> Next {
        listeners[ticket]?.writingSince = nil
        while true {
            guard encoder != nil, !Task.isCancelled, let listener = listeners[ticket], !listener.stalled else {
                return .gone
            }
            switch ring.read(from: position) {
            case .behind:
                dropped += 1
                metrics.droppedStream.increment()
                return .gone
            case .chunks(let stored, let skip):
                var chunks = stored.map(\.chunk)
                chunks[0].buffer.moveReaderIndex(forwardBy: skip)
                listeners[ticket]?.writingSince = pacing.elapsed()
                return .chunks(chunks, end: ring.end)
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
