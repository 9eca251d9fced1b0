import Foundation
import HummingbirdWSClient
import Logging
import Synchronization
import WavelengthCore
import WavelengthWire

/// Send times of probes in flight, shared by the connection's writer (which
/// stamps a probe the instant before it goes out) and the actor (which reads
/// the stamp when the answer comes). Stamping at the socket, not when the
/// probe is queued, keeps queueing delay out of the offset.
final class ProbeLedger: Sendable {
    private let sent = Mutex<[String: Double]>([:])

    func stamp(_ nonce: String, at time: Double) {
        sent.withLock { $0[nonce] = time }
    }

    func take(_ nonce: String) -> Double? {
        sent.withLock { $0.removeValue(forKey: nonce) }
    }

    func clear() {
        sent.withLock { $0.removeAll() }
    }
}

/// What the connection's writer sends.
enum Outgoing: Sendable {
    case text(String)
    case probe(nonce: String, text: String)
}

/// Keeps a connection to one station: syncs the clock, follows the
/// timeline, sends commands, and reconnects with backoff when the network
/// drops, resuming from the last revision. While disconnected, `plan()` keeps
/// answering from the schedule it last had.
public actor StationClient {
    public nonisolated let events: AsyncStream<StationEvent>
    private let eventSink: AsyncStream<StationEvent>.Continuation
    public let configuration: ClientConfiguration
    /// Said on every connection and by the player's live streams (see
    /// `ClientConfiguration.deviceKey`): the configuration's when it is a
    /// key, else this client's own.
    public nonisolated let deviceKey: String
    private let clock: any ClientClock
    private let logger: Logger

    public private(set) var model = StationModel()
    /// The tracks of the model's window, which updates may name by id.
    private var knownTracks = KnownTracks()
    private var estimator = ClockEstimator()
    private var slewed = SlewedClock()
    private var isPlaying = false
    private var outgoing: AsyncStream<Outgoing>.Continuation?
    private var pending: [String: Pending] = [:]
    /// Chat messages sent and not yet answered, by their id.
    private var saying: [String: CheckedContinuation<ChatMessageView, any Error>] = [:]
    private let probes = ProbeLedger()
    private var pingCounter = 0
    private var runner: Task<Void, Never>?
    private var stopped = false

    private struct Pending {
        var request: CommandRequest
        var continuation: CheckedContinuation<CommandAck, any Error>
        /// Sent again by the client itself, on a new connection.
        var resent = false
        /// Waiting for the connection's role before it goes out.
        var held = false
    }

    public init(
        configuration: ClientConfiguration, clock: any ClientClock = MonotonicClock(),
        logger: Logger = Logger(label: "wavelength.client")
    ) {
        self.configuration = configuration
        // One the server would refuse (400) is never sent: the client's own instead.
        self.deviceKey = configuration.deviceKey.flatMap { DeviceKey($0)?.value } ?? UUID().uuidString
        self.clock = clock
        self.logger = logger
        (events, eventSink) = AsyncStream<StationEvent>.makeStream(bufferingPolicy: .bufferingNewest(1024))
    }

    // MARK: Life cycle

    public func start() {
        guard runner == nil else { return }
        stopped = false
        runner = Task { await self.run() }
    }

    public func stop() {
        stopped = true
        runner?.cancel()
        runner = nil
        outgoing?.finish()
        for (_, pending) in pending { pending.continuation.resume(throwing: ClientError.stopped) }
        pending.removeAll()
        failSaying(ClientError.stopped)
        eventSink.finish()
    }

    /// Closes the current connection as a network loss would; the client
    /// reconnects on its own. For tests and for "the network changed".
    public func dropConnection() {
        outgoing?.finish()
    }

    // MARK: Reading

    /// The server clock now, in ms, as best the client knows it.
    public func serverNow() -> Double? {
        slewed.serverTime(at: clock.now())
    }

    /// The client-clock instant at which the server clock reads `server` (ms).
    public func localTime(ofServer server: Double) -> Double? {
        let local = clock.now()
        return slewed.serverTime(at: local).map { local + (server - $0) }
    }

    public var clockEstimate: ClockEstimator.Estimate? { estimator.estimate }

    /// What should be playing now, at which offset, and what comes next.
    public func plan(prefetch: Double = 10_000) -> PlaybackPlan? {
        timedPlan(prefetch: prefetch)?.plan
    }

    /// The plan together with the client-clock instant it describes, so an
    /// output can start at exactly that file position however long it takes
    /// to get the answer.
    public func timedPlan(prefetch: Double = 10_000) -> (plan: PlaybackPlan, local: Double)? {
        let local = clock.now()
        guard let now = slewed.serverTime(at: local), let plan = model.plan(at: now, prefetch: prefetch) else {
            return nil
        }
        return (plan, local)
    }

    /// Playback tells the client when it plays, so clock corrections slew
    /// instead of stepping while music is audible.
    public func setPlaying(_ playing: Bool) {
        isPlaying = playing
    }

    // MARK: Commands

    /// Sends a command and waits for the server's answer. The id makes it
    /// safe to resend: after a reconnect, unanswered commands go out again
    /// with the same id and are applied at most once.
    ///
    /// The command carries the DJ epoch this connection was told, so if the
    /// role changed hands meanwhile the server refuses it as stale. Until a
    /// connection has heard its role (just after connecting, or while the
    /// network is down), a command is held, then sent with the epoch the
    /// new connection gives: a DJ's command pressed during an outage goes
    /// out when the DJ is back, and is refused if the booth went to someone
    /// else.
    @discardableResult
    public func send(_ command: StationCommand, id: String = UUID().uuidString) async throws -> CommandAck {
        let request = CommandRequest(id: id, command: command, epoch: model.djEpoch)
        return try await withCheckedThrowingContinuation { continuation in
            guard !stopped else {
                continuation.resume(throwing: ClientError.stopped)
                return
            }
            let held = !model.roleKnown || outgoing == nil
            pending[id] = Pending(request: request, continuation: continuation, held: held)
            if !held { transmit(.command(request)) }
        }
    }

    /// Posts to the station's chat; answers the message as the server kept
    /// it. Unlike a command it is never held or sent again: a message typed
    /// while offline fails with `notConnected`, and so does one whose
    /// connection drops before the answer.
    @discardableResult
    public func say(_ text: String, id: String = UUID().uuidString) async throws -> ChatMessageView {
        try await withCheckedThrowingContinuation { continuation in
            guard !stopped else { return continuation.resume(throwing: ClientError.stopped) }
            guard outgoing != nil else { return continuation.resume(throwing: ClientError.notConnected) }
            saying[id] = continuation
            transmit(.chat(id: id, text: text))
        }
    }

    /// Reacts to the song playing (one of `ChatRoomView.palette`). A refusal
    /// comes back as a `refused` event with `id`.
    public func react(_ emoji: String, id: String = UUID().uuidString) {
        let playing = serverNow().flatMap { model.plan(at: $0)?.current } ?? model.window?.current
        guard let entryID = playing?.id else { return }
        transmit(.react(id: id, entryID: entryID, emoji: emoji))
    }

    /// A room calibration's message to the station's other listeners
    /// (`RoomSignal`). A refusal comes back as a `refused` event.
    public func sendRoom(_ signal: RoomSignal) {
        transmit(.room(signal))
    }

    /// A moderator's action on the chat. A refusal comes back as a
    /// `refused` event with `id`.
    public func moderate(_ action: ChatModeration, id: String = UUID().uuidString) {
        transmit(.moderate(id: id, action))
    }

    private func failSaying(_ error: ClientError) {
        let waiting = saying
        saying.removeAll()
        for (_, continuation) in waiting { continuation.resume(throwing: error) }
    }

    /// The connection heard its role: held commands go out with its epoch.
    private func releaseHeld() {
        for id in pending.keys.sorted() where pending[id]?.held == true {
            pending[id]?.held = false
            pending[id]?.request.epoch = model.djEpoch
            if let request = pending[id]?.request { transmit(.command(request)) }
        }
    }

    // MARK: Connection loop

    private func run() async {
        var attempt = 0
        var rng = SystemRandomNumberGenerator()
        while !stopped && !Task.isCancelled {
            let (stream, continuation) = AsyncStream<Outgoing>.makeStream()
            outgoing = continuation
            model.connectionOpened()
            let url = configuration.liveURL(since: model.revision, deviceKey: deviceKey)
            do {
                // Windows can be tens of KB; the default 16 KB frame limit is too small.
                var socket = WebSocketClientConfiguration(maxFrameSize: 1 << 20)
                if let token = await configuration.accessToken() {
                    socket.additionalHeaders[.authorization] = "Bearer \(token)"
                }
                _ = try await WebSocketClient.connect(url: url, configuration: socket, logger: logger) {
                    inbound, outbound, _ in
                    await self.opened()
                    let (clock, probes) = (self.clock, self.probes)
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for await item in stream {
                                switch item {
                                case .text(let text):
                                    try await outbound.write(.text(text))
                                case .probe(let nonce, let text):
                                    probes.stamp(nonce, at: clock.now())
                                    try await outbound.write(.text(text))
                                }
                            }
                        }
                        group.addTask { await self.probe() }
                        group.addTask {
                            for try await message in inbound.messages(maxSize: 4 << 20) {
                                // Stamp arrival before anything else can delay it.
                                let arrived = clock.now()
                                if case .text(let text) = message { await self.receive(text, at: arrived) }
                            }
                        }
                        _ = try await group.next()
                        group.cancelAll()
                    }
                }
                attempt = 0
            } catch {
                logger.debug("Connection to \(url) failed: \(error)")
            }
            continuation.finish()
            outgoing = nil
            failSaying(.notConnected)
            guard !stopped && !Task.isCancelled else { break }
            eventSink.yield(.disconnected(reason: "connection closed"))
            attempt += 1
            let delay = configuration.backoff.delay(attempt: attempt, using: &rng)
            eventSink.yield(.reconnecting(attempt: attempt, afterMs: delay))
            try? await Task.sleep(for: .milliseconds(Int(delay)))
        }
    }

    private func opened() {
        // Probes from the old connection can never be answered now.
        probes.clear()
        // Unanswered commands go out again once this connection hears its
        // role (`releaseHeld`), with the epoch it gives.
        for id in pending.keys {
            pending[id]?.resent = true
            pending[id]?.held = true
        }
    }

    /// A burst of probes to converge fast, then the configured schedule.
    private func probe() async {
        let connected = clock.now()
        for _ in 0..<configuration.burstProbes {
            sendPing()
            guard (try? await Task.sleep(for: .milliseconds(Int(configuration.burstSpacing)))) != nil else { return }
        }
        while !Task.isCancelled {
            let delay = configuration.probeDelay(afterConnectingFor: clock.now() - connected)
            guard (try? await Task.sleep(for: .milliseconds(Int(delay)))) != nil else { return }
            sendPing()
        }
    }

    private func sendPing() {
        pingCounter += 1
        let nonce = "p\(pingCounter)"
        guard let outgoing, let data = try? JSONEncoder().encode(ClientMessage.ping(nonce: nonce)) else { return }
        outgoing.yield(.probe(nonce: nonce, text: String(decoding: data, as: UTF8.self)))
    }

    private func transmit(_ message: ClientMessage) {
        guard let outgoing, let data = try? JSONEncoder().encode(message) else { return }
        outgoing.yield(.text(String(decoding: data, as: UTF8.self)))
    }

    // MARK: Incoming

    private func receive(_ text: String, at received: Double) {
        let data = Data(text.utf8)
        let decoder = JSONDecoder()
        // An update names the tracks this client holds by id alone.
        decoder.userInfo[KnownTracks.key] = knownTracks
        let sequenced: SequencedServerMessage
        do {
            sequenced = try decoder.decode(SequencedServerMessage.self, from: data)
        } catch {
            if KnownTracks.isUnknownTrack(error), let seq = try? decoder.decode(SequenceNumber.self, from: data).seq {
                // It named a track this client doesn't hold: start afresh.
                model.skipped(seq: seq)
                transmit(.resync)
            } else {
                logger.warning("Ignored a message the client could not read")
            }
            return
        }
        if model.receive(sequenced) == .resync {
            transmit(.resync)
        }
        switch sequenced.message {
        case .snapshot, .update: knownTracks = KnownTracks(model.window)
        default: break
        }
        switch sequenced.message {
        case .snapshot(let snapshot):
            eventSink.yield(.connected(resumed: false))
            eventSink.yield(.snapshot(snapshot))
        case .resumed:
            eventSink.yield(.connected(resumed: true))
        case .update(let window):
            eventSink.yield(.updated(window))
        case .listeners(let count):
            eventSink.yield(.listeners(count))
        case .ack(let ack):
            if let waiting = pending.removeValue(forKey: ack.id) {
                // When the client resent a command itself (its connection
                // dropped before the answer came), "duplicate" only means the
                // first copy got through: this send was applied once, and is
                // answered as a first. A caller's own resend stays a duplicate.
                let answer = waiting.resent ? CommandAck(id: ack.id, revision: ack.revision, duplicate: false) : ack
                waiting.continuation.resume(returning: answer)
            }
            eventSink.yield(.acknowledged(ack))
        case .error(let id, let code, let message):
            if let id { pending.removeValue(forKey: id)?.continuation.resume(throwing: ClientError.refused(code: code, message: message)) }
            if let id { saying.removeValue(forKey: id)?.resume(throwing: ClientError.refused(code: code, message: message)) }
            eventSink.yield(.refused(id: id, code: code, message: message))
        case .role(let role, let epoch):
            releaseHeld()
            eventSink.yield(.role(isDJ: role == "dj", epoch: epoch))
        case .dj(let epoch, let present, _):
            eventSink.yield(.dj(epoch: epoch, present: present))
        case .access(let role):
            eventSink.yield(.access(role))
        case .removed(let person, let reason):
            eventSink.yield(.removed(person, reason: reason))
            // Kicked or banned: reconnecting would only be refused again.
            if person.id == configuration.personID { stopped = true }
        case .ended:
            eventSink.yield(.ended)
            stopped = true
        case .party(let view):
            eventSink.yield(.party(view))
        case .votes(let mine):
            eventSink.yield(.votes(mine))
        case .hostOverride(let kind, let trackID, let requesterName):
            eventSink.yield(.hostOverride(kind: kind, trackID: trackID, requesterName: requesterName))
        case .thumbs(let entryID, let up, let down):
            eventSink.yield(.thumbs(entryID: entryID, up: up, down: down))
        case .standing(let standing):
            eventSink.yield(.standing(standing))
        case .sound(let sound):
            eventSink.yield(.sound(sound))
        case .chat(let message, let ref):
            if let ref { saying.removeValue(forKey: ref)?.resume(returning: message) }
            eventSink.yield(.chat(message))
        case .chatRoom(let room):
            eventSink.yield(.chatRoom(room))
        case .chatDeleted(let ids, let personID, let all):
            eventSink.yield(.chatDeleted(messageIDs: ids, personID: personID, all: all))
        case .reactions(let burst):
            eventSink.yield(.reactions(burst))
        case .clipWaiting(let clip):
            eventSink.yield(.clipWaiting(clip))
        case .room(let signal):
            eventSink.yield(.room(signal))
        case .pong(let nonce, _, let serverReceived, let serverSent):
            guard let nonce, let sent = probes.take(nonce) else { return }
            estimator.add(
                ClockSample(sent: sent, serverReceived: serverReceived, serverSent: serverSent, received: received))
            if let estimate = estimator.estimate {
                slewed.update(target: estimate.offset, at: received, playing: isPlaying)
                eventSink.yield(
                    .clock(offset: estimate.offset, roundTrip: estimate.bestRoundTrip, samples: estimate.sampleCount))
            }
        }
    }
}

/// Just a message's sequence number, for one the client can't read whole.
private struct SequenceNumber: Decodable {
    let seq: UInt64
}
