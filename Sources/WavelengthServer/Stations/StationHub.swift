import Foundation
import Logging
import WavelengthCore
import WavelengthStorage
import WavelengthWire

/// The one authoritative owner of a station while the server runs.
///
/// Every change goes through here, one at a time: it is applied to a copy of
/// the state, saved in one transaction, and only then made current, sent to
/// the listeners and acknowledged. While nobody listens the hub holds no
/// timer and does no work.
actor StationHub {
    typealias ListenerID = UUID

    nonisolated let id: StationID
    private(set) var record: StationRecord
    private var state: StationState
    private var ledger = CommandLedger()
    private var listeners: [ListenerID: AsyncStream<LiveOutgoing>.Continuation] = [:]
    /// Who holds each connection, and their role on the station.
    private var seats: [ListenerID: Seat] = [:]
    private var ticker: Task<Void, Never>?
    private let context: StationContext
    /// The connection that holds the DJ role: the owner's, or a co-DJ
    /// promoted after the DJ dropped. Connections in arrival order.
    private var dj: ListenerID?
    private var djEpoch: Int64 = 0
    private var arrivals: [ListenerID] = []
    private var promotion: Task<Void, Never>?
    /// The station's chosen pool, loaded on first use; empty = whole library.
    private var chosenPool: Set<TrackID>?
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(loaded: LoadedStation, context: StationContext) {
        self.id = loaded.record.id
        self.record = loaded.record
        self.state = loaded.state
        self.context = context
        for command in loaded.recentCommands {
            ledger.record(command.id, revision: command.revision)
        }
    }

    var listenerCount: Int { listeners.count }
    var revision: Int64 { state.revision }
    var isOnAir: Bool { state.isOnAir }

    // MARK: Reading

    func window(historyLimit: Int = 10, upNextLimit: Int = WireLimits.liveUpNextLimit) async throws -> TimelineWindow {
        let clockNow = context.clock.now()
        let now = state.timelineTime(at: clockNow)
        let current = state.timeline.current(at: now)
        let allUpcoming = state.timeline.upcoming(at: now)
        let upcoming = Array(allUpcoming.prefix(upNextLimit))
        // Just after GO the held track's rest may not have started yet (a
        // resume takes effect a short lead ahead): it is still what plays.
        let history = JustPlayed.rows(
            history: state.recentHistory.filter { $0.expiration <= now }, current: current ?? allUpcoming.first,
            limit: historyLimit)
        let all = [current].compactMap { $0 } + upcoming + history
        let tracks = try await context.catalog.summaries(for: all.map(\.trackID))
        func view(_ entry: TimelineEntry) -> EntryView {
            EntryView(entry: entry, track: tracks[entry.trackID] ?? .unavailable(entry.trackID, duration: entry.duration))
        }
        return TimelineWindow(
            stationID: id, revision: state.revision, serverTime: clockNow, current: current.map(view),
            positionMs: current.map { now - $0.start }, upNext: upcoming.map(view), history: history.map(view),
            pausedAt: state.pausedAt, upNextTotal: allUpcoming.count)
    }

    func view() async throws -> StationView {
        let now = context.clock.now()
        let playing = state.isOnAir ? state.timeline.current(at: state.timelineTime(at: now)) : nil
        var track: TrackSummary?
        if let playing {
            track = try await context.catalog.summaries(for: [playing.trackID])[playing.trackID]
        }
        return StationView(
            id: id, name: record.name, owner: record.owner, ownerID: record.ownerID,
            frequency: record.liveFrequency(at: now), visibility: record.visibility, maxListeners: record.maxListeners,
            revision: state.revision, listeners: listeners.count, onAir: state.isOnAir && !listeners.isEmpty,
            nowPlaying: track, createdAt: record.createdAt)
    }

    /// The people connected now, one entry per connection.
    func connectedSeats() -> [Seat] {
        arrivals.compactMap { seats[$0] }
    }

    // MARK: Listeners

    /// Adds a listener. A quiet station goes back on the air first. The
    /// listener's first message is a snapshot, or `resumed` when `since` shows
    /// it missed nothing.
    func connect(
        _ listener: ListenerID, stream: AsyncStream<LiveOutgoing>.Continuation, since: Int64?, seat: Seat = .anonymous
    ) async throws {
        await lock()
        defer { unlock() }
        if let limit = record.maxListeners, seat.role < .codj, listeners.count >= limit {
            throw APIError(.conflict, code: "station_full", "\(record.name) is full: it takes \(limit) listeners.")
        }
        if listeners.isEmpty {
            try await wakeAndFill()
        }
        listeners[listener] = stream
        seats[listener] = seat
        arrivals.append(listener)
        let first: ServerMessage
        if let since, since == state.revision {
            first = .resumed(revision: state.revision, serverTime: context.clock.now(), listeners: listeners.count)
        } else {
            first = try await snapshot()
        }
        stream.yield(.text(try Self.encode(first)))
        stream.yield(.text(try Self.encode(.access(role: seat.role))))
        broadcast(.listeners(count: listeners.count), except: listener)
        if seat.role == .owner && dj != listener || seat.role == .codj && dj == nil && promotion == nil {
            // The owner (back) on the air takes the DJ role; a co-DJ takes
            // an empty booth.
            handOver(to: listener)
        } else {
            stream.yield(.text(try Self.encode(.role(role: "listener", epoch: djEpoch))))
        }
        reschedule()
    }

    func disconnect(_ listener: ListenerID) async {
        await lock()
        defer { unlock() }
        guard let stream = listeners.removeValue(forKey: listener) else { return }
        stream.finish()
        seats[listener] = nil
        arrivals.removeAll { $0 == listener }
        broadcast(.listeners(count: listeners.count))
        if dj == listener {
            dj = nil
            broadcast(.dj(epoch: djEpoch, present: false))
            schedulePromotion()
        }
        guard listeners.isEmpty else { return }
        // Tree in the forest: the last listener left, so stop all work.
        ticker?.cancel()
        ticker = nil
        promotion?.cancel()
        promotion = nil
        do {
            try await commit { state in state.goQuiet(at: context.clock.now()) }
        } catch {
            context.logger.error("Could not save station \(id) going quiet: \(error)")
        }
    }

    /// Queues a fresh snapshot for one listener, in order with the
    /// broadcasts (the caller counts it against the listener's reply window).
    func resync(_ listener: ListenerID) async throws {
        await lock()
        defer { unlock() }
        guard let stream = listeners[listener] else { return }
        stream.yield(.reply(try Self.encode(try await snapshot())))
    }

    private func snapshot() async throws -> ServerMessage {
        .snapshot(.init(station: try await view(), timeline: try await window(), listeners: listeners.count))
    }

    // MARK: Commands

    /// Applies a DJ command once. A command id seen before is acknowledged
    /// with the revision it produced and not applied again. Over a
    /// connection, its seat's current role counts (it changes live when
    /// co-DJs are named); over HTTP, the role the gate found.
    func apply(_ request: CommandRequest, role: StationRole, from listener: ListenerID? = nil) async throws -> CommandAck {
        let role = listener.flatMap { seats[$0]?.role } ?? (listener == nil ? role : .none)
        guard StationPermissions.allows(role, .command) else {
            throw APIError(.forbidden, code: "forbidden", StationGate.refusal(.command))
        }
        await lock()
        defer { unlock() }
        if let revision = try await appliedRevision(request.id) {
            return CommandAck(id: request.id, revision: revision, duplicate: true)
        }
        if let epoch = request.epoch, epoch != djEpoch {
            throw APIError(
                .conflict, code: "stale_epoch",
                "The DJ role changed hands (epoch \(djEpoch), the command says \(epoch)); it was not applied.")
        }
        var knownTrack: PoolTrack?
        switch request.command {
        case .append(let trackID), .queueNext(let trackID):
            knownTrack = try await context.catalog.poolTrack(trackID)
        default:
            break
        }
        let now = context.clock.now()
        var rng = SystemRandomNumberGenerator()
        var next = state
        let outcome = try next.apply(
            request.command, at: now, lead: context.commitLead, track: { _ in knownTrack }, using: &rng)
        let applied = AppliedCommand(id: request.id, revision: next.revision, appliedAt: now)
        try await context.repository.saveStation(next, played: outcome.played, command: applied)
        state = next
        ledger.record(request.id, revision: next.revision)
        // A skip or an edit may leave the robot short of its horizon.
        if !listeners.isEmpty { try await fillIfNeeded() }
        try await broadcastWindow()
        reschedule()
        return CommandAck(id: request.id, revision: applied.revision, duplicate: false)
    }

    private func appliedRevision(_ commandID: String) async throws -> Int64? {
        if let revision = ledger.revision(for: commandID) { return revision }
        return try await context.repository.appliedRevision(stationID: id, commandID: commandID)
    }

    // MARK: Time passing

    private func wakeAndFill() async throws {
        let (pool, library) = try await pools()
        let artists = try await context.catalog.artistsByTrack()
        let now = context.clock.now()
        let changed = try await commit { state in
            var rng = SystemRandomNumberGenerator()
            var outcome = state.wake(
                at: now, robot: context.robot, pool: pool, fallback: library, artistOf: { artists[$0] }, using: &rng)
            outcome.merge(
                state.fill(
                    at: now, robot: context.robot, pool: pool, fallback: library, artistOf: { artists[$0] },
                    using: &rng))
            return outcome
        }
        if changed { try await broadcastWindow() }
    }

    /// Settles what has played and tops the schedule up. Returns whether
    /// clients must be told.
    @discardableResult
    private func fillIfNeeded() async throws -> Bool {
        let (pool, library) = try await pools()
        let artists = try await context.catalog.artistsByTrack()
        let now = context.clock.now()
        return try await commit { state in
            var rng = SystemRandomNumberGenerator()
            return state.fill(
                at: now, robot: context.robot, pool: pool, fallback: library, artistOf: { artists[$0] }, using: &rng)
        }
    }

    /// The station's pool and the fallback (the whole library). A pool whose
    /// tracks have all left the library comes back empty, so the robot falls back.
    private func pools() async throws -> (pool: [PoolTrack], library: [PoolTrack]) {
        let library = try await context.catalog.pool()
        if chosenPool == nil {
            chosenPool = Set(try await context.repository.pool(stationID: id))
        }
        guard let chosenPool, !chosenPool.isEmpty else { return (library, library) }
        return (library.filter { chosenPool.contains($0.id) }, library)
    }

    // MARK: DJ role

    /// Gives the DJ role to a connection and tells everyone.
    private func handOver(to listener: ListenerID) {
        promotion?.cancel()
        promotion = nil
        if let previous = dj, previous != listener, let stream = listeners[previous],
            let text = try? Self.encode(.role(role: "listener", epoch: djEpoch + 1))
        {
            stream.yield(.text(text))
        }
        dj = listener
        djEpoch += 1
        if let stream = listeners[listener], let text = try? Self.encode(.role(role: "dj", epoch: djEpoch)) {
            stream.yield(.text(text))
        }
        broadcast(.dj(epoch: djEpoch, present: true))
    }

    /// After the grace period, the longest-connected co-DJ becomes DJ,
    /// unless the DJ came back first. Listeners are never promoted: only
    /// the owner and the co-DJs they named control the music.
    private func schedulePromotion() {
        promotion?.cancel()
        let grace = context.djGracePeriod
        promotion = Task { [weak self] in
            guard (try? await Task.sleep(for: grace)) != nil else { return }
            await self?.promote()
        }
    }

    private func promote() async {
        await lock()
        defer { unlock() }
        guard !Task.isCancelled else { return }
        // The grace period is over either way: a co-DJ who arrives later
        // takes the empty booth on arrival.
        promotion = nil
        guard dj == nil,
            let heir = arrivals.first(where: { (seats[$0]?.role ?? .none) >= .codj })
        else { return }
        handOver(to: heir)
    }

    // MARK: People

    /// Changes the role of every connection a person holds, and tells them.
    /// A co-DJ who loses the role also loses the DJ booth.
    func setRole(of personID: String, to role: StationRole) {
        for (listener, seat) in seats where seat.personID == personID {
            seats[listener]?.role = role
            if let text = try? Self.encode(.access(role: role)) { listeners[listener]?.yield(.text(text)) }
            if role < .codj, dj == listener {
                dj = nil
                broadcast(.dj(epoch: djEpoch, present: false))
                schedulePromotion()
            }
        }
    }

    /// Removes a person from every connection they hold, at once, and tells
    /// everyone (them included) why.
    func remove(personID: String, name: String, reason: String) {
        broadcast(.removed(person: PersonRef(id: personID, name: name), reason: reason))
        for (listener, seat) in seats where seat.personID == personID {
            listeners[listener]?.finish()
        }
    }

    /// The owner ended the session: everyone is told, then every connection closes.
    func end() {
        broadcast(.ended)
        for stream in listeners.values { stream.finish() }
    }

    /// Takes new settings or a new code, and sends everyone a fresh snapshot.
    func replace(record: StationRecord) async {
        await lock()
        defer { unlock() }
        self.record = record
        guard !listeners.isEmpty, let text = try? Self.encode(try await snapshot()) else { return }
        broadcast(text: text)
    }

    // MARK: Song pool

    func pool() async throws -> [TrackID] {
        try await context.repository.pool(stationID: id)
    }

    /// Replaces the robot DJ's pool; every track must exist. (The caller's
    /// role was checked by the controller.)
    func setPool(_ trackIDs: [TrackID]) async throws {
        let known = try await context.catalog.summaries(for: trackIDs)
        if let unknown = trackIDs.first(where: { known[$0] == nil }) {
            throw APIError(TimelineError.unknownTrack(unknown))
        }
        await lock()
        defer { unlock() }
        try await context.repository.setPool(stationID: id, trackIDs: trackIDs)
        chosenPool = Set(trackIDs)
    }

    private func tick() async {
        await lock()
        defer { unlock() }
        guard !listeners.isEmpty, !Task.isCancelled else { return }
        do {
            if try await fillIfNeeded() { try await broadcastWindow() }
        } catch {
            context.logger.error("Station \(id) could not advance: \(error)")
        }
        reschedule()
    }

    /// Wakes up when the current entry ends, and only while someone listens.
    private func reschedule() {
        ticker?.cancel()
        ticker = nil
        guard !listeners.isEmpty, state.pausedAt == nil else { return }
        let now = context.clock.now()
        guard let next = state.timeline.entries.first(where: { $0.expiration > now }) else { return }
        let delay = next.expiration - now
        ticker = Task { [weak self] in
            try? await Task.sleep(for: .milliseconds(delay))
            guard !Task.isCancelled else { return }
            await self?.tick()
        }
    }

    // MARK: Saving and telling

    /// Applies `change` to a copy, saves it, then makes it current.
    @discardableResult
    private func commit(_ change: (inout StationState) -> StationState.Outcome) async throws -> Bool {
        var next = state
        let outcome = change(&next)
        if outcome.needsSave || next.quietSince != state.quietSince {
            try await context.repository.saveStation(next, played: outcome.played, command: nil)
        }
        state = next
        return outcome.changed
    }

    private func broadcastWindow() async throws {
        guard !listeners.isEmpty else { return }
        broadcast(.update(try await window()))
    }

    private func broadcast(_ message: ServerMessage, except skipped: ListenerID? = nil) {
        guard !listeners.isEmpty, let text = try? Self.encode(message) else { return }
        broadcast(text: text, except: skipped)
    }

    private func broadcast(text: String, except skipped: ListenerID? = nil) {
        for (listener, stream) in listeners where listener != skipped {
            // A listener whose queue is full is too slow to follow: close it
            // rather than silently drop a message; it reconnects and catches up.
            if case .dropped = stream.yield(.text(text)) {
                context.logger.notice("Closed listener \(listener) of station \(id): it fell 256 messages behind")
                stream.finish()
            }
        }
    }

    static func encode(_ message: ServerMessage) throws -> String {
        String(decoding: try JSONEncoder().encode(message), as: UTF8.self)
    }

    // MARK: One change at a time

    /// Actor methods interleave at every `await`; this keeps whole changes
    /// (apply, save, broadcast) from interleaving with each other.
    private func lock() async {
        if busy {
            await withCheckedContinuation { waiting.append($0) }
        } else {
            busy = true
        }
    }

    private func unlock() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()  // hand over: `busy` stays true
        }
    }
}
