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
/// Listeners keep no task: each is a `StreamListenerHandler` on its
/// connection, woken through a `StreamFanout` per event loop when the
/// encoder appends, reading the `SharedStreamRing` from its own position.
///
/// Honest counts: each listener is reported to the station's audience as
/// it comes and goes. One whose socket has taken nothing for `stallTimeout`
/// (a player that vanished without closing: its socket's buffers are full
/// and no ACK comes) is let go then, not when TCP gives up minutes later.
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
    nonisolated let ring = SharedStreamRing(capacity: StationStream.ringBytes)
    /// The title of the song the encoder is fed now.
    private(set) var title = IcyMetadata(artist: nil, title: nil)

    /// One player on the stream.
    struct Listener {
        let identity: ListenerIdentity
        let kind: ListenerKind
    }

    private var listeners: [UInt64: Listener] = [:]
    private var nextTicket: UInt64 = 0
    /// The listeners, by the event loop of their connection.
    private var fanouts: [ObjectIdentifier: StreamFanout] = [:]
    private var encoder: Task<Void, Never>?
    private var stopping: Task<Void, Never>?
    private var sweeper: Task<Void, Never>?
    private let grace: Duration
    private let stallTimeout: Duration
    /// The clock the grace and the stall sweep run on, and the wall clock
    /// `startedAt` is read from.
    nonisolated let pacing: Pacing
    private let wall: any ServerClock
    private let start: @Sendable (StationStream) -> Task<Void, Never>
    private let report: @Sendable (StationMachine.StreamAudienceChange) -> Void
    private let logger: Logger
    /// Listeners let go for falling behind or stalling, since the start.
    private(set) var dropped = 0
    nonisolated let metrics: ServerMetrics

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
    /// Stream connections open now.
    var listenerCount: Int { listeners.count }

    /// Where a new listener starts, and who wakes it.
    struct Joined: Sendable {
        let ticket: UInt64
        let position: UInt64
        let fanout: StreamFanout
    }

    /// A new listener on a connection of `loop`: its ticket, where it starts
    /// reading, and the fan-out that wakes it; nil once the stream retired
    /// (ask the directory for the station's stream again). (The caller tells
    /// the station it arrived, before its first byte goes out; its departure
    /// is reported from here.)
    func join(_ identity: ListenerIdentity, kind: ListenerKind, burst: Int = StationStream.burst, on loop: any EventLoop)
        -> Joined?
    {
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
        let key = ObjectIdentifier(loop)
        let fanout = fanouts[key] ?? StreamFanout(loop: loop)
        fanouts[key] = fanout
        return Joined(ticket: nextTicket, position: ring.joinPosition(burst: burst), fanout: fanout)
    }

    /// A listener went (`StreamListenerHandler` says why), or never started.
    func leave(_ ticket: UInt64, because why: StreamListenerHandler.Departure = .closed) {
        guard let listener = listeners.removeValue(forKey: ticket) else { return }
        report(.left(listener.identity, listener.kind))
        switch why {
        case .stalled:
            dropped += 1
            metrics.droppedStream.increment()
            logger.notice("A stream listener of station \(stationID) stalled: its socket took nothing for \(stallTimeout)")
        case .behind:
            dropped += 1
            metrics.droppedStream.increment()
        case .closed, .ended:
            break
        }
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

    /// Listeners whose socket has taken nothing for `stallTimeout` are let go.
    private func sweep() {
        let now = pacing.elapsed()
        for fanout in fanouts.values { fanout.letGoStalled(now: now, timeout: stallTimeout) }
    }

    private func stopIfNobodyListens() {
        stopping = nil
        guard listeners.isEmpty, let encoder else { return }
        logger.info("Stream of station \(stationID) stops its encoder: nobody listens")
        encoder.cancel()
        self.encoder = nil
        startedAt = nil
        ring.reset()
        if let retire {
            retired = true
            retire(self)
        }
    }

    /// The encoder's output.
    func append(_ buffer: ByteBuffer) {
        ring.append(SharedStreamRing.Chunk(buffer: buffer, title: title))
        for tap in taps.values { tap.yield(buffer) }
        for fanout in fanouts.values { fanout.pump() }
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
        ring.reset()
        for fanout in fanouts.values { fanout.letEveryoneGo() }
    }
}
