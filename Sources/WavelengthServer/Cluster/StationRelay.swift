import WavelengthCore
import WavelengthStore
import WavelengthWire

/// A station another node runs, relayed to listeners on this node: the
/// same snapshot and updates the running node's hub would send, made from
/// the station as stored. The owner's every save is signalled
/// (`ClusterSignal.Kind.timelineChanged`) while other nodes relay it, and
/// the relay reads the station again and sends its listeners the update,
/// encoded once for all of them.
///
/// A relay only listens. It never saves and runs no timers: the owner's hub
/// does all of that. What a listener sends beyond pings and resyncs (chat,
/// reactions, commands) is refused with a message saying so.
actor StationRelay {
    nonisolated let id: StationID
    private(set) var record: StationRecord
    private var state: StationState
    private var sound: SoundView
    private var queues: [ConnectionID: any ListenerQueue] = [:]
    /// Who each listener is, so the count this node reports weighs them as
    /// the station's own node would: a person once, signed-out listeners at
    /// most `Audience.anonymousPerAddress` to an address.
    private var identities: [ConnectionID: ListenerIdentity] = [:]
    private var audience = Audience()
    private var sharedTracks = SharedTracks()
    /// The tracks of the revision relayed now.
    private var summaryCache = RevisionTracks()
    /// The listeners other nodes report for the station (its own node's
    /// among them), so the count here is the cluster's.
    private var elsewhere = 0
    /// Whether a signal has told this relay of a save yet. The owner
    /// announces its saves only once it knows a node relays the station
    /// (from that node's presence report, at the next renewals); until the
    /// first signal comes, the relay reads the station at each renewal.
    private(set) var signalled = false
    private let context: StationContext

    init(loaded: LoadedStation, context: StationContext) {
        self.id = loaded.record.id
        self.record = loaded.record
        self.state = loaded.state
        self.sound = Self.sound(of: loaded)
        self.context = context
    }

    /// The people listening here.
    var listenerCount: Int { audience.counts.listeners }
    /// Everyone listening, on every node.
    private var listeners: Int { listenerCount + elsewhere }

    /// Other nodes' listeners now: this relay's listeners hear the new total.
    func listeningElsewhere(_ count: Int) {
        let before = listeners
        elsewhere = max(0, count)
        guard listeners != before, !queues.isEmpty,
            let text = try? StationHub.encode(.listeners(count: listeners))
        else { return }
        for (connection, queue) in queues where !queue.offer(.text(text)) { close(connection) }
    }

    /// Seats a listener: its queue gets a snapshot (a client that already
    /// has this revision gets `resumed`). It joins the updates only with a
    /// snapshot of the revision they go on from: one made while a newer
    /// revision was read is made again.
    func connect(_ connection: ConnectionID, queue: any ListenerQueue, since: Int64?, identity: ListenerIdentity) async throws {
        if let since, since == state.revision {
            seat(connection, queue: queue, identity: identity)
            let text = try StationHub.encode(
                .resumed(revision: state.revision, serverTime: context.clock.now(), listeners: listeners))
            if !queue.offer(.text(text)) { close(connection) }
            return
        }
        // Made before the listener is seated: counting it already.
        var (text, timeline) = try await snapshot(joining: 1)
        for _ in 0..<3 where timeline.revision != state.revision { (text, timeline) = try await snapshot(joining: 1) }
        seat(connection, queue: queue, identity: identity)
        sharedTracks.sent(timeline)
        if !queue.offer(.text(text)) { close(connection) }
    }

    func disconnect(_ connection: ConnectionID) {
        queues[connection] = nil
        unseat(connection)
    }

    private func seat(_ connection: ConnectionID, queue: any ListenerQueue, identity: ListenerIdentity) {
        queues[connection] = queue
        identities[connection] = identity
        audience.arrive(identity, kind: .app, at: context.clock.now())
    }

    private func unseat(_ connection: ConnectionID) {
        guard let identity = identities.removeValue(forKey: connection) else { return }
        audience.leave(identity, kind: .app, at: context.clock.now())
    }

    /// A fresh snapshot for one connection, in order with the updates.
    func resync(_ connection: ConnectionID) async {
        do {
            try await sendSnapshot(to: connection, reply: true)
        } catch {
            context.logger.error("Relayed station \(id) could not build a snapshot: \(error)")
            close(connection)
        }
    }

    /// The station as stored now (the owner saved it; `signalled`: a signal
    /// said so): listeners get the update when its revision moved on, and
    /// nothing when it didn't (a change this relay already read, or an
    /// older one).
    func follow(_ loaded: LoadedStation, signalled: Bool) async {
        if signalled { self.signalled = true }
        record = loaded.record
        sound = Self.sound(of: loaded)
        guard loaded.state.revision > state.revision else { return }
        state = loaded.state
        guard !queues.isEmpty else { return }
        do {
            broadcastUpdate(try await window())
        } catch {
            // Listeners catch up at the next change, or at a resync.
            context.logger.error("Relayed station \(id) could not send an update: \(error)")
        }
    }

    /// The station runs here now, or nowhere: every listener is closed, to
    /// reconnect and find the station's hub.
    func retire() {
        for connection in Array(queues.keys) { close(connection) }
    }

    // MARK: Messages

    private func sendSnapshot(to connection: ConnectionID, reply: Bool) async throws {
        let (text, timeline) = try await snapshot()
        guard let queue = queues[connection] else { return }
        sharedTracks.sent(timeline)
        if !queue.offer(reply ? .reply(text) : .text(text)) { close(connection) }
    }

    private func snapshot(joining: Int = 0) async throws -> (EncodedMessage, TimelineWindow) {
        let timeline = try await window()
        let text = try StationHub.encode(
            .snapshot(
                .init(station: try await view(joining: joining), timeline: timeline, listeners: listeners + joining)))
        return (text, timeline)
    }

    private func window() async throws -> TimelineWindow {
        let entries = state.windowEntries(
            at: context.clock.now(), historyLimit: 10, upNextLimit: WireLimits.liveUpNextLimit)
        return state.window(of: entries, stationID: id, tracks: try await summaries(for: entries.trackIDs))
    }

    private func view(joining: Int) async throws -> StationView {
        let now = context.clock.now()
        let playing = state.isOnAir ? state.timeline.current(at: state.timelineTime(at: now)) : nil
        var track: TrackSummary?
        if let playing { track = try await summaries(for: [playing.trackID])[playing.trackID] }
        return StationView(
            id: id, name: record.name, owner: record.owner, ownerID: record.ownerID,
            frequency: record.liveFrequency(at: now), visibility: record.visibility, maxListeners: record.maxListeners,
            revision: state.revision, listeners: listeners + joining, onAir: state.isOnAir && queues.count + joining > 0,
            nowPlaying: track, createdAt: record.createdAt, mode: record.mode, sound: sound)
    }

    private func summaries(for ids: [TrackID]) async throws -> [TrackID: TrackSummary] {
        let revision = state.revision
        let missing = summaryCache.missing(ids, at: revision)
        let known = summaryCache.tracks
        guard !missing.isEmpty else { return known }
        return summaryCache.add(try await context.catalog.summaries(for: missing), to: known, at: revision)
    }

    private func broadcastUpdate(_ window: TimelineWindow) {
        for connection in sharedTracks.offerUpdate(window, to: queues) { close(connection) }
    }

    private func close(_ connection: ConnectionID) {
        queues.removeValue(forKey: connection)?.finish()
        unseat(connection)
    }

    private static func sound(of loaded: LoadedStation) -> SoundView {
        let party = PartyState(
            mode: loaded.record.mode, settings: loaded.record.requestSettings ?? RequestSettings(), queue: loaded.party,
            lobby: LobbyState(saved: loaded.lobby, credibility: loaded.credibility))
        return SoundView(party.sound)
    }
}
