import Foundation
import Logging
import WavelengthCore
import WavelengthStore
import WavelengthWire

/// The one authoritative owner of a station while the server runs: the
/// actor around `StationMachine`, the pure value that decides every rule.
///
/// For each event (`inTurn`, one at a time) the hub reads what the machine
/// needs from storage (pool, shows, co-likes, track summaries, roles), has
/// the machine decide, and performs what it answers: `commit` makes the
/// saves before the changed machine is kept, then `perform` sends messages,
/// closes connections and sets timers. It also builds the views clients
/// read. It owns the connections' queues and the timer tasks; while nobody
/// listens it holds neither.
actor StationHub {
    nonisolated let id: StationID
    private(set) var record: StationRecord
    private var machine: StationMachine
    private var queues: [ConnectionID: any ListenerQueue] = [:]
    private var timerTasks: [HubTimer: Task<Void, Never>] = [:]
    /// An administrator deleted the station: its rows are going or gone, so
    /// the listeners still leaving save nothing.
    private var deleted = false
    private var turnstile = Turnstile()
    private var random: AnyRandom
    let context: StationContext
    /// The station's chosen pool, loaded on first use; empty = whole library.
    private var chosenPool: Set<TrackID>?
    /// The station's shows, and when they were read (nil: read them again).
    private var shows: [Show] = []
    private var showsReadAt: EpochMillis?
    /// What the people who saved this room's favourite songs also saved,
    /// with the favourites it was read for and when (read again when they
    /// change or it is `CoLikes.freshFor` old).
    private var coLikes: (seeds: [TrackID], readAt: EpochMillis, tracks: [TrackID: CoLike])?
    /// The track summaries this revision's timeline shows.
    private var summaryCache = RevisionTracks()
    /// The summaries of the tracks waiting in the party's queue.
    private var partyTracks: [TrackID: TrackSummary] = [:]
    /// What `publishOnAir` last told `OnAirTracks`.
    private var published: (revision: Int64, listening: Bool)?
    /// Whether the station was listened to when the LAN was last told.
    private var announcedListening: Bool?
    /// What every connection holds of the timeline's tracks (for compact updates).
    private var sharedTracks = SharedTracks()
    /// The chat as most connections see it, encoded once per change of the
    /// room (a crowd joining gets the same 50 messages).
    private var commonChatRoom: (version: Int, roster: Int, entryID: EntryID?, text: EncodedMessage)?

    init(loaded: LoadedStation, context: StationContext) {
        self.id = loaded.record.id
        self.record = loaded.record
        self.context = context
        self.random = context.makeRandom()
        self.machine = StationMachine(
            station: loaded.state, recentCommands: loaded.recentCommands, maxListeners: loaded.record.maxListeners,
            settings: context.machineSettings,
            party: PartyState(
                mode: loaded.record.mode, settings: loaded.record.requestSettings ?? RequestSettings(),
                queue: loaded.party, lobby: LobbyState(saved: loaded.lobby, credibility: loaded.credibility)),
            taste: loaded.taste,
            chat: ChatRoom(
                loaded.chat.keeping(since: context.clock.now() - context.machineSettings.chatRetentionMillis)))
    }

    var listenerCount: Int { machine.listenerCount }
    /// Someone listens (in the app or to the stream): the station's lease is renewed.
    var isListenedTo: Bool { machine.isListenedTo }
    /// Whether a connection is seated (this node's own, or another node's
    /// relayed listener: their departures are saved here too).
    var seatsConnections: Bool { !machine.connections.isEmpty }
    /// Everyone listening now, by kind: the station's one count.
    var audience: Audience.Counts { machine.audience.counts }
    var audienceNow: Audience { machine.audience }
    /// The audience minutes not saved yet: the open one so far.
    var unsavedAudience: [ListenerMinute] { machine.unsavedAudience(at: context.clock.now()) }
    var partySettings: RequestSettings { machine.party.settings }
    var revision: Int64 { machine.station.revision }
    var isOnAir: Bool { machine.station.isOnAir }

    /// The song's reaction totals as kept before a restart (see `StationDirectory.hub(id:)`).
    func resumeReactions(entryID: EntryID, trackID: TrackID, totals: [String: Int]) {
        machine.resumeReactions(entryID: entryID, trackID: trackID, totals: totals)
    }

    // MARK: Reading

    func window(historyLimit: Int = 10, upNextLimit: Int = WireLimits.liveUpNextLimit) async throws -> TimelineWindow {
        let state = machine.station
        let entries = state.windowEntries(at: context.clock.now(), historyLimit: historyLimit, upNextLimit: upNextLimit)
        return state.window(of: entries, stationID: id, tracks: try await summaries(for: entries.trackIDs))
    }

    func view() async throws -> StationView {
        let state = machine.station
        let now = context.clock.now()
        let playing = state.isOnAir ? state.timeline.current(at: state.timelineTime(at: now)) : nil
        var track: TrackSummary?
        if let playing {
            track = try await summaries(for: [playing.trackID])[playing.trackID]
        }
        return StationView(
            id: id, name: record.name, owner: record.owner, ownerID: record.ownerID,
            frequency: record.liveFrequency(at: now), visibility: record.visibility, maxListeners: record.maxListeners,
            revision: state.revision, listeners: machine.audience.counts.listeners, onAir: machine.isPlayingForSomeone,
            nowPlaying: track, createdAt: record.createdAt, mode: record.mode, sound: SoundView(machine.party.sound))
    }

    /// The party as one connection may see it: vote counts and vetoes for
    /// the host and co-DJs (counts for everyone when the host shows them),
    /// and `personID`'s own votes when given.
    func partyView(showCounts: Bool, staff: Bool = false, votesOf personID: String? = nil) async throws -> PartyView {
        let party = machine.party
        let ordered = party.queue.ordered()
        // A crowd joining a party reads the queue's tracks from storage once,
        // not once per arrival: only tracks new to the queue are looked up,
        // and the cache holds no more than the queue does.
        let ballot = party.isLobby ? party.lobby.ballot : nil
        let vetoed = party.queue.vetoed.sorted()
        let waiting = Set(ordered.map(\.trackID) + (ballot?.candidates.map(\.trackID) ?? []) + vetoed)
        let missing = waiting.filter { partyTracks[$0] == nil }
        if !missing.isEmpty {
            partyTracks.merge(try await context.catalog.summaries(for: Array(missing))) { _, fetched in fetched }
        }
        if partyTracks.count > waiting.count { partyTracks = partyTracks.filter { waiting.contains($0.key) } }
        return PartyView(
            machine: machine, at: context.clock.now(), tracks: partyTracks, showCounts: showCounts, staff: staff,
            personID: personID)
    }

    /// The party as someone with `role` may see it (the machine says what
    /// that role sees), with `personID`'s own votes.
    func partyView(as role: StationRole, votesOf personID: String?) async throws -> PartyView {
        let seat = Seat(personID: personID, name: "", role: role)
        return try await partyView(
            showCounts: machine.showsVoteCounts(to: seat), staff: machine.isStaff(seat), votesOf: personID)
    }

    /// Summaries for the tracks of the timeline as it is now (see `RevisionTracks`).
    private func summaries(for ids: [TrackID]) async throws -> [TrackID: TrackSummary] {
        let revision = machine.station.revision
        let missing = summaryCache.missing(ids, at: revision)
        let known = summaryCache.tracks
        guard !missing.isEmpty else { return known }
        return summaryCache.add(try await context.catalog.summaries(for: missing), to: known, at: revision)
    }

    /// The entry the station's timeline or recent history holds for
    /// `instant` (what history answers before the play is kept), with the
    /// count now when it is the one playing.
    func entry(at instant: EpochMillis) -> Play? {
        let state = machine.station
        let now = context.clock.now()
        guard instant <= now else { return nil }
        let known = state.timeline.entries.filter { $0.start <= now } + state.recentHistory
        guard let entry = known.filter({ $0.start <= instant && instant < $0.expiration }).max(by: { $0.start < $1.start })
        else { return nil }
        return Play(entry: entry, listeners: entry.isPlaying(at: now) ? machine.audience.counts.listeners : nil)
    }

    /// The people connected now, one entry per connection, in arrival order.
    func connectedSeats() -> [Seat] {
        machine.connections.map(\.seat)
    }

    // MARK: Events

    /// Adds a connection. Its queue gets a snapshot (or `resumed`), its
    /// access and its booth role. Throws `HubError.stationFull`.
    func connect(
        _ connection: ConnectionID, queue: any ListenerQueue, since: Int64?,
        seat: Seat = .anonymous
    ) async throws {
        try await inTurn { hub in
            let robot = hub.machine.arrivalNeedsRobot ? try await hub.robotInputs() : .none
            hub.queues[connection] = queue
            do {
                let join: (inout StationMachine, inout AnyRandom) throws -> [HubAction] = { machine, rng in
                    try machine.connect(
                        connection, seat: seat, since: since, at: hub.context.clock.now(), robot: robot, using: &rng)
                }
                if hub.machine.arrivalMaySave {
                    try await hub.commit(join)
                } else {
                    try await hub.commit(inPlace: true, join)
                }
            } catch {
                hub.queues[connection] = nil
                throw error
            }
        }
    }

    /// Removes a connection. Never fails: a listener that left is never left
    /// counted, even when saving "gone quiet" fails.
    func disconnect(_ connection: ConnectionID) async {
        await inTurn { hub in
            do {
                guard !hub.deleted else { throw StorageError.noSuchStation }
                let leave: (inout StationMachine, inout AnyRandom) -> [HubAction] = { machine, _ in
                    machine.disconnect(connection, at: hub.context.clock.now())
                }
                if hub.machine.departureMaySave {
                    try await hub.commit(leave)
                } else {
                    try await hub.commit(inPlace: true, leave)
                }
            } catch {
                if !hub.deleted { hub.context.logger.error("Could not save station \(hub.id) going quiet: \(error)") }
                // Keep the connection gone anyway; storage catches up at the next save.
                var machine = hub.machine
                let actions = machine.disconnect(connection, at: hub.context.clock.now())
                hub.machine = machine
                await hub.perform(actions.filter { if case .save = $0 { false } else { true } })
            }
        }
    }

    /// A stream listener came or went (from the station's stream).
    func streamAudience(_ change: StationMachine.StreamAudienceChange) async {
        await inTurn { hub in
            await hub.perform(hub.machine.streamAudience(change, at: hub.context.clock.now()))
        }
    }

    /// Queues a fresh snapshot for one connection, in order with the
    /// broadcasts (the caller counts it against the client's reply window).
    func resync(_ connection: ConnectionID) async {
        await inTurn { hub in await hub.perform(hub.machine.resync(connection)) }
    }

    /// Applies a DJ command once; a command id seen before is acknowledged
    /// with the revision it produced. Over a connection its seat's current
    /// role counts; over HTTP, the role the gate found.
    func apply(_ request: CommandRequest, from origin: StationMachine.Origin) async throws -> CommandAck {
        try await inTurn { hub in
            let appliedBefore =
                hub.machine.ledger.revision(for: request.id) == nil
                ? try await hub.context.repository.appliedRevision(stationID: hub.id, commandID: request.id) : nil
            try await hub.refuseBlocked(request.command, from: origin)
            var track: PoolTrack?
            if let trackID = request.command.trackID {
                track = try await hub.context.catalog.poolTrack(trackID)
                // Another person's unshared upload is no track here, whoever learned its id.
                if let found = track, !found.mayPlay(onStationOf: hub.record.ownerID) { track = nil }
            }
            // A request is judged by the rules against the pool and the host's
            // playlist, listened to or not.
            let robot = hub.machine.commandNeedsRobot(request.command) ? try await hub.robotInputs() : .none
            var result: StationMachine.CommandResult?
            try await hub.commit { machine, rng in
                let outcome = try machine.command(
                    request.command, id: request.id, epoch: request.epoch, from: origin,
                    at: hub.context.clock.now(), appliedBefore: appliedBefore, track: track, robot: robot, using: &rng)
                result = outcome
                return outcome.actions
            }
            guard let result else { throw HubError.forbidden(.command) }
            if !result.duplicate { hub.context.metrics.commands.increment() }
            return CommandAck(id: request.id, revision: result.revision, duplicate: result.duplicate)
        }
    }

    /// Tracks whose files left the library while the station runs: each
    /// upcoming entry with one goes, and one playing now is skipped, in
    /// sync like a DJ's skip (after the commit lead), so nobody hears a
    /// file that is no longer served. Each is an ordinary command, saved
    /// and broadcast; its id makes a second rescan's request a no-op.
    func leaveOut(tracks gone: Set<TrackID>) async {
        let (current, upcoming) = {
            let time = machine.station.timelineTime(at: context.clock.now())
            return (machine.station.timeline.current(at: time), machine.station.timeline.upcoming(at: time))
        }()
        let origin = StationMachine.Origin.request(.owner, name: "The library")
        let leaving = upcoming.filter { gone.contains($0.trackID) }.count + (current.map { gone.contains($0.trackID) ? 1 : 0 } ?? 0)
        guard leaving > 0 else { return }
        defer { context.logger.info("Station \(id): \(leaving) entries whose files left the library are off its timeline") }
        for entry in upcoming where gone.contains(entry.trackID) {
            do {
                _ = try await apply(CommandRequest(id: "library-gone-\(entry.id)", command: .remove(entryID: entry.id)), from: origin)
            } catch {
                context.logger.warning("Could not take a removed file off station \(id)'s timeline: \(error)")
            }
        }
        if let current, gone.contains(current.trackID) {
            do {
                _ = try await apply(CommandRequest(id: "library-gone-\(current.id)", command: .skip(entryID: current.id)), from: origin)
            } catch {
                context.logger.warning("Could not skip a removed file on station \(id): \(error)")
            }
        }
    }

    // MARK: The room

    /// A chat message from a connection: kept before anyone sees it.
    func chat(_ text: String, ref: String?, from connection: ConnectionID) async throws {
        try await inTurn { hub in
            try await hub.commit { machine, rng in
                try machine.chat(text, ref: ref, from: connection, at: hub.context.clock.now(), using: &rng)
            }
        }
    }

    /// A moderator's action on the chat.
    func moderate(_ action: ChatModeration, from connection: ConnectionID) async throws {
        try await moderating(action) { machine, now, target in
            try machine.moderate(action, from: connection, at: now, targetRole: target)
        }
    }

    /// A moderator's action on the chat from a report, checked by the
    /// caller (`ReportRules`): nobody need be connected.
    func moderate(_ action: ChatModeration, by moderatorID: String?) async throws {
        try await moderating(action) { machine, now, target in
            try machine.moderate(action, by: moderatorID, at: now, targetRole: target)
        }
    }

    /// Reads the stored role of the person the action is on, then applies it in turn.
    private func moderating(
        _ action: ChatModeration,
        _ apply: @escaping @Sendable (inout StationMachine, EpochMillis, StationRole?) throws -> [HubAction]
    ) async throws {
        try await inTurn { hub in
            var target: StationRole?
            if let personID = StationMachine.moderationTarget(action) {
                target = try await hub.storedRole(of: personID)
            }
            try await hub.commit { machine, _ in try apply(&machine, hub.context.clock.now(), target) }
        }
    }

    /// A person's role on the station as storage knows it, connected or
    /// not; refuses an id that names nobody.
    private func storedRole(of personID: String) async throws -> StationRole {
        if personID == record.ownerID { return .owner }
        guard let access = context.access else { return .none }
        guard try await access.people(ids: [personID])[personID] != nil else { throw HubError.chat(.unknownPerson) }
        return try await access.access(stationID: id, personID: personID, ownerID: record.ownerID).memberRole ?? .none
    }

    /// A room calibration's message, passed on to the other listeners;
    /// saves nothing, so it runs in place.
    func room(_ signal: RoomSignal, from connection: ConnectionID) async throws {
        try await inTurn { hub in
            try await hub.commit(inPlace: true) { machine, rng in
                try machine.roomSignal(signal, from: connection, at: hub.context.clock.now(), using: &rng)
            }
        }
    }

    /// A block between two people was made or lifted: their seats here follow.
    func blockChanged(between one: String, and other: String, stands: Bool) async {
        await inTurn { hub in await hub.perform(hub.machine.blockChanged(between: one, and: other, stands: stands)) }
    }

    /// A reaction to the song playing; saves nothing, so it runs in place.
    func react(_ emoji: String, on entryID: EntryID, from connection: ConnectionID) async throws {
        try await inTurn { hub in
            try await hub.commit(inPlace: true) { machine, _ in
                try machine.react(emoji, on: entryID, from: connection, at: hub.context.clock.now())
            }
        }
    }

    // MARK: Voice clips

    /// An approved clip goes on the air next, between songs.
    func playClip(_ clip: VoiceClip) async throws {
        try await inTurn { hub in
            try await hub.commit { machine, rng in try machine.clipApproved(clip, at: hub.context.clock.now(), using: &rng) }
        }
    }

    /// A guest's clip waits: the owner and co-DJs listening are told.
    func clipWaiting(_ clip: VoiceClip) async {
        await inTurn { hub in await hub.perform(hub.machine.clipWaiting(clip)) }
    }

    /// Whether a newcomer would see something `personID` wrote here.
    func showsMessages(by personID: String) -> Bool {
        machine.chat.recent.contains { $0.personID == personID }
    }

    /// Whether the clip's entry is on the timeline still to play (or playing).
    func isScheduled(clipID: String) -> Bool {
        machine.isScheduled(ClipTrack.id(clipID), at: context.clock.now())
    }

    /// Changes the role of every connection a person holds, and tells them.
    func setRole(of personID: String, to role: StationRole, stillHosting: Bool = true) async {
        await inTurn { hub in
            await hub.perform(
                hub.machine.roleChanged(personID: personID, to: role, stillHosting: stillHosting, at: hub.context.clock.now()))
        }
    }

    /// Removes a person from every connection they hold, and tells everyone why.
    func remove(personID: String, name: String, reason: String) async {
        await inTurn { hub in
            await hub.perform(hub.machine.remove(personID: personID, name: name, reason: reason))
        }
    }

    /// `personID` joined another lobby; see `StationMachine.leftForAnotherLobby`.
    func leftForAnotherLobby(personID: String, name: String) async {
        await inTurn { hub in
            await hub.perform(hub.machine.leftForAnotherLobby(personID: personID, name: name))
        }
    }

    /// Who may listen changed: connections whose person no longer may are
    /// told why and closed. `allowed` holds the people who still may; an
    /// anonymous connection stays only when `anonymousMayStay`.
    func accessChanged(allowed: Set<String>, anonymousMayStay: Bool) async {
        await inTurn { hub in
            await hub.perform(hub.machine.accessChanged { seat in seat.personID.map(allowed.contains) ?? anonymousMayStay })
        }
    }

    /// An administrator suspended the person: their connections here close.
    func letGo(personID: String) async {
        await inTurn { hub in
            await hub.perform(hub.machine.accessChanged { seat in seat.personID != personID })
        }
    }

    /// A live source came on the air: its entry (titled `title`) takes over
    /// the timeline, or carries on when the same person is back within
    /// the grace.
    func liveStarted(personID: String, title: String) async throws {
        try await inTurn { hub in
            let now = hub.context.clock.now()
            try await hub.commit { machine, rng in
                machine.liveStarted(
                    TimelineEntry(
                        id: EntryIDs.make(using: &rng), trackID: LiveTrack.id(stationID: hub.id, personID: personID),
                        start: now, duration: StationState.liveLength, source: .live, why: title),
                    at: now)
            }
        }
    }

    /// A song recognised in the live show, heard from `start`.
    func heardOnLive(trackID: TrackID, start: EpochMillis, duration: Int64) async {
        await inTurn { hub in
            do {
                try await hub.commit { machine, rng in
                    machine.heardOnLive(
                        TimelineEntry(
                            id: EntryIDs.make(using: &rng), trackID: trackID, start: start, duration: duration,
                            source: .heard, why: "Heard on the live show"),
                        at: hub.context.clock.now())
                }
            } catch {
                hub.context.logger.error("Could not keep a song of the live show on station \(hub.id): \(error)")
            }
        }
    }

    /// The person's source is still on the air: its show is scheduled on.
    func liveRenewed(personID: String) async throws {
        try await inTurn { hub in
            try await hub.commit { machine, _ in
                machine.liveRenewed(
                    trackID: LiveTrack.id(stationID: hub.id, personID: personID), at: hub.context.clock.now())
            }
        }
    }

    /// The live source left: the show ends `grace` ms from now unless it
    /// comes back.
    func liveLeft(personID: String, grace: Int64) async {
        await inTurn { hub in
            do {
                try await hub.commit { machine, _ in
                    machine.liveLeft(
                        trackID: LiveTrack.id(stationID: hub.id, personID: personID), grace: grace,
                        at: hub.context.clock.now())
                }
            } catch {
                hub.context.logger.error("Could not save the end of the live show on station \(hub.id): \(error)")
            }
        }
    }

    /// The owner ended the session: everyone is told, then every connection closes.
    func end() async {
        await inTurn { hub in await hub.perform(hub.machine.end()) }
    }

    /// Takes new settings or a new code, and sends everyone a fresh snapshot.
    func applySettings(of record: StationRecord) async {
        await inTurn { hub in
            hub.record = record
            hub.publishNearby(force: true)
            let robot = hub.machine.settingsNeedRobot(mode: record.mode) ? try? await hub.robotInputs() : nil
            let now = hub.context.clock.now()
            do {
                try await hub.commit { machine, rng in
                    machine.settingsChanged(
                        maxListeners: record.maxListeners, mode: record.mode,
                        requests: record.requestSettings ?? RequestSettings(), robot: robot, at: now, using: &rng)
                }
            } catch {
                hub.context.logger.error("Station \(hub.id) could not take its new settings: \(error)")
            }
        }
    }

    private func timerFired(_ timer: HubTimer, due: EpochMillis) async {
        await inTurn { hub in
            guard hub.machine.timers[timer] == due else {
                if timer == .ballot {
                    hub.context.logger.info(
                        "Station \(hub.id): a ballot timer due \(due) was replaced (now due \(hub.machine.timers[.ballot].map(String.init) ?? "never"))")
                }
                return
            }
            do {
                let robot = StationMachine.timerNeedsRobot(timer) ? try await hub.robotInputs() : .none
                try await hub.commit { machine, rng in
                    machine.timerFired(timer, due: due, at: hub.context.clock.now(), robot: robot, using: &rng)
                }
                if timer == .ballot, let elected = hub.machine.party.lobby.elected {
                    hub.context.logger.info(
                        "Station \(hub.id) closed ballot \(hub.machine.party.lobby.ballot?.id ?? "-"): \(elected) plays next")
                } else if timer == .ballot {
                    // The robot's pick stands; worth knowing when it happens.
                    let ballot = hub.machine.party.lobby.ballot
                    hub.context.logger.warning(
                        "Station \(hub.id) closed ballot \(ballot?.id ?? "-") with no winner (due \(due), now \(hub.context.clock.now()), follows \(ballot?.follows ?? "-"), playing \(hub.machine.station.timeline.current(at: hub.context.clock.now())?.id ?? "-"))")
                }
            } catch let fault as any StorageFault where fault.isOutage {
                // The timer tries again; while storage is out, one line a minute.
                if OutageLog.shouldLog(at: ContinuousClock.now) {
                    hub.context.logger.error("Station \(hub.id) could not advance (storage is out of service): \(fault)")
                }
            } catch {
                hub.context.logger.error("Station \(hub.id) could not advance: \(error)")
                // Try again in a second rather than fall silent.
                hub.startTimer(timer, due: due, after: 1000)
            }
        }
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
            throw HubError.timeline(.unknownTrack(unknown))
        }
        if let hidden = try await context.catalog.firstUnplayable(trackIDs, onStationOf: record.ownerID) {
            throw HubError.timeline(.unknownTrack(hidden))
        }
        try await inTurn { hub in
            try await hub.context.repository.setPool(stationID: hub.id, trackIDs: trackIDs)
            hub.chosenPool = Set(trackIDs)
        }
    }

    /// The station's pool, the fallback (the whole library) and the artists.
    /// A pool whose tracks have all left the library comes back empty, so
    /// the robot falls back.
    ///
    /// Tracks co-liked with the room's favourite songs are marked, so they
    /// borrow the room's liking for them (`CoLike`).
    func robotInputs() async throws -> RobotInputs {
        // Everyone's music, and the owner's own uploads they haven't shared.
        let owner = record.ownerID
        let library = try await context.catalog.pool().filter { $0.mayPlay(onStationOf: owner) }
            .markingCoLikes(await currentCoLikes())
        let artists = try await context.catalog.artistsByTrack()
        // The show on the air brings its own programming; between shows,
        // and when none of its tracks is in the library, the station's.
        if chosenPool == nil {
            chosenPool = Set(try await context.repository.pool(stationID: id))
        }
        let playlist = chosenPool ?? []
        if let show = try await showOnAir(), !show.pool.isEmpty {
            let pool = Set(show.pool)
            let picks = library.filter { pool.contains($0.id) }
            if !picks.isEmpty { return RobotInputs(pool: picks, fallback: library, artists: artists, playlist: playlist) }
        }
        guard !playlist.isEmpty else {
            return RobotInputs(pool: library, fallback: library, artists: artists, playlist: playlist)
        }
        return RobotInputs(
            pool: library.filter { playlist.contains($0.id) }, fallback: library, artists: artists, playlist: playlist)
    }

    /// The show whose episode airs now, from the station's shows as read
    /// at most a minute ago (an edit through the API reads them at once).
    private func showOnAir() async throws -> Show? {
        guard let schedule = context.schedule else { return nil }
        let now = context.clock.now()
        if showsReadAt.map({ now - $0 > 60_000 }) ?? true {
            shows = try await schedule.shows(stationID: id)
            showsReadAt = now
        }
        guard !shows.isEmpty, let episode = StationSchedule(shows: shows).onAir(at: now) else { return nil }
        return shows.first { $0.id == episode.showID }
    }

    /// The schedule changed: the next pick reads it again.
    func scheduleChanged() {
        showsReadAt = nil
    }

    /// The co-likes of the room's current favourites, read again only when
    /// the favourites change or the last read is stale. A failed read costs
    /// the robot a hint, never the station its next song.
    private func currentCoLikes() async -> [TrackID: CoLike] {
        let seeds = machine.taste.favouriteTracks(limit: CoLikes.seeds)
        guard !seeds.isEmpty else { return [:] }
        let now = context.clock.now()
        if let coLikes, coLikes.seeds == seeds, now - coLikes.readAt < CoLikes.freshFor {
            return coLikes.tracks
        }
        do {
            let tracks = try await context.catalog.coLiked(with: seeds)
            coLikes = (seeds, now, tracks)
            return tracks
        } catch {
            context.logger.warning("Station \(id) could not read co-likes: \(error)")
            return coLikes?.tracks ?? [:]
        }
    }

    // MARK: Running the machine

    /// Runs `body` alone: events never interleave with each other.
    ///
    /// The body runs in a short-lived task of its own. Events come from the
    /// listeners' connection tasks, which live as long as the listener, and
    /// a task keeps every stack slab it ever grew until it ends: an event's
    /// deep call chain (storage, snapshots) left there would cost each idle
    /// listener tens of KB.
    private func inTurn<T: Sendable, Failure: Error>(
        _ body: @escaping @Sendable (isolated StationHub) async throws(Failure) -> T
    ) async throws(Failure) -> T {
        if !turnstile.enter() {
            await withCheckedContinuation { turnstile.wait($0) }
        }
        defer { turnstile.leave()?.resume() }
        let outcome: Result<T, Failure> = await Task {
            do throws(Failure) { return .success(try await body(self)) } catch { return .failure(error) }
        }.value
        return try outcome.get()
    }

    /// Tells `OnAirTracks` what this station may be playing: its timeline and
    /// recent history while someone listens, nothing while nobody does.
    private func publishOnAir() {
        let listening = machine.isListenedTo
        let now = (revision: machine.station.revision, listening: listening)
        guard published?.revision != now.revision || published?.listening != now.listening else { return }
        published = now
        let state = machine.station
        context.onAir.publish(
            id, tracks: listening ? Set(state.timeline.entries.map(\.trackID) + state.recentHistory.map(\.trackID)) : nil)
    }

    /// Tells the LAN announcer whether this station is announced, when its
    /// listening changed or `force` (its settings changed).
    private func publishNearby(force: Bool = false) {
        guard let nearby = context.nearby else { return }
        let listening = machine.isListenedTo
        guard force || announcedListening != listening else { return }
        announcedListening = listening
        nearby.set(id, nearby.announcement(for: record, listening: listening, at: context.clock.now()))
    }

    // Every change goes one of two ways. An event that saves nothing and
    // can't fail is `perform(machine.x(…))`. One that may save is
    // `commit { machine, rng in … }`: it runs on a copy of the machine,
    // makes its saves, keeps the copy only when they all succeeded, then
    // performs the rest.
    //
    // `inPlace` runs it on the machine itself, for the events the machine
    // says save nothing (a listener joining a station already on the air,
    // or leaving one that stays on): a copy per event would copy the roster
    // of thousands each time, and a crowd's arrival would be quadratic. A
    // save it asks for after all is still made, with nothing to roll back to.
    private func commit(
        inPlace: Bool = false, _ change: (inout StationMachine, inout AnyRandom) throws -> [HubAction]
    ) async throws {
        if inPlace {
            let actions = try change(&machine, &random)
            try await performSaves(actions)
            await perform(actions)
            return
        }
        var next = machine
        let actions = try change(&next, &random)
        try await performSaves(actions)
        machine = next
        await perform(actions)
    }

    /// The saves an event asks for, in order, before anything else.
    private func performSaves(_ actions: [HubAction]) async throws {
        for action in actions {
            switch action {
            case .save(let save):
                try await context.repository.saveStation(save)
            case .saveChat(let change): try await context.repository.saveChat(stationID: id, change)
            default: continue
            }
        }
    }

    /// Performs everything but saves (which `commit` made first).
    private func perform(_ actions: [HubAction]) async {
        // Before any message goes out: a player that hears of a track asks
        // for its audio at once, and may need it converted.
        publishOnAir()
        publishNearby()
        let now = context.clock.now()
        for action in actions {
            switch action {
            case .save, .saveChat:
                break
            case .sendChatRoom(let connection):
                sendChatRoom(to: connection, at: now)
            case .broadcastChatRoom:
                for connection in queues.keys { sendChatRoom(to: connection, at: now) }
            case .recordReactions(let burst):
                do {
                    try await context.repository.recordReactions(stationID: id, burst)
                } catch {
                    context.logger.warning("Station \(id) could not keep a song's reactions: \(error)")
                }
            case .send(let connection, let notice):
                send(notice.message(serverTime: now), to: connection)
            case .broadcast(let notice, let except):
                broadcast(notice.message(serverTime: now), except: except)
            case .broadcastSkipping(let notice, let skipped):
                guard !queues.isEmpty, let text = try? Self.encode(notice.message(serverTime: now)) else { continue }
                for (connection, queue) in queues where !skipped.contains(connection) && !queue.offer(.text(text)) {
                    close(connection, reason: "a broadcast")
                }
            case .sendSnapshot(let connection, let reply):
                guard let queue = queues[connection] else { continue }
                do {
                    let message = try await snapshot()
                    let text = try Self.encode(message)
                    if case .snapshot(let snapshot) = message { sharedTracks.sent(snapshot.timeline) }
                    if !queue.offer(reply ? .reply(text) : .text(text)) { close(connection, reason: "a snapshot") }
                } catch {
                    context.logger.error("Station \(id) could not build a snapshot: \(error)")
                    queue.finish()
                }
            case .broadcastSnapshot:
                guard !queues.isEmpty else { continue }
                do {
                    let message = try await snapshot()
                    let text = try Self.encode(message)
                    if case .snapshot(let snapshot) = message { sharedTracks.broadcast(snapshot.timeline) }
                    broadcast(text: text, except: nil)
                } catch {
                    // Listeners catch up at the next change, or at a reconnect with `since`.
                    context.logger.error("Station \(id) could not send a snapshot: \(error)")
                }
            case .broadcastUpdate:
                guard !queues.isEmpty else { continue }
                do {
                    broadcastUpdate(try await window())
                } catch {
                    context.logger.error("Station \(id) could not send an update: \(error)")
                }
            case .sendRequests(let connection):
                guard let queue = queues[connection], let seat = machine.seat(of: connection) else { continue }
                do {
                    let view = try await partyView(
                        showCounts: machine.showsVoteCounts(to: seat), staff: machine.isStaff(seat), votesOf: seat.personID)
                    if !queue.offer(.text(try Self.encode(.party(view)))) { close(connection, reason: "the party") }
                } catch {
                    context.logger.error("Station \(id) could not show its party: \(error)")
                }
            case .broadcastRequests:
                guard !queues.isEmpty else { continue }
                do {
                    try await broadcastParty()
                } catch {
                    context.logger.error("Station \(id) could not show its party: \(error)")
                }
            case .close(let connection):
                queues.removeValue(forKey: connection)?.finish()
            case .startTimer(let timer, let instant):
                startTimer(timer, due: instant, after: instant - now)
            case .cancelTimer(let timer):
                timerTasks.removeValue(forKey: timer)?.cancel()
            case .recordAudience(let minutes):
                do {
                    try await context.repository.recordAudience(stationID: id, minutes: minutes)
                } catch {
                    context.logger.warning("Station \(id) could not keep its audience minutes: \(error)")
                }
            }
        }
    }

    /// The chat as `connection` may see it: one encoded copy for everyone
    /// who sees it alike, made again only when the room changes.
    private func sendChatRoom(to connection: ConnectionID, at now: EpochMillis) {
        guard let queue = queues[connection] else { return }
        let text: EncodedMessage
        if machine.seesCommonChatRoom(connection, at: now) {
            let entryID = machine.station.timeline.current(at: machine.station.timelineTime(at: now))?.id
            if let common = commonChatRoom, common.version == machine.chat.version, common.roster == machine.rosterVersion,
                common.entryID == entryID
            {
                text = common.text
            } else {
                guard let room = machine.chatRoom(for: connection, at: now),
                    let encoded = try? Self.encode(.chatRoom(chatRoomView(room)))
                else { return }
                commonChatRoom = (machine.chat.version, machine.rosterVersion, entryID, encoded)
                text = encoded
            }
        } else {
            guard let room = machine.chatRoom(for: connection, at: now),
                let encoded = try? Self.encode(.chatRoom(chatRoomView(room)))
            else { return }
            text = encoded
        }
        if !queue.offer(.text(text)) { close(connection, reason: "the chat") }
    }

    private func chatRoomView(_ room: StationMachine.ChatRoomNotice) -> ChatRoomView {
        ChatRoomView(
            enabled: room.enabled, guestsMayPost: room.guestsMayPost, slowModeSeconds: room.slowModeSeconds,
            messages: room.messages.map(ChatMessageView.init), mutedUntil: room.mutedUntil,
            muted: room.muted.map { mutes in
                mutes.sorted { $0.value < $1.value }.map { MuteView(person: PersonRef(id: $0.key, name: name(of: $0.key)), until: $0.value) }
            },
            reactions: room.reactions.map(ReactionsView.init),
            people: room.people.compactMap { person in
                person.handle.map { MentionableView(id: person.personID, name: person.name, handle: $0) }
            })
    }

    /// A person's name as the station last saw it: a seat, then a message.
    private func name(of personID: String) -> String {
        machine.connections.first { $0.seat.personID == personID }?.seat.name
            ?? machine.chat.recent.last { $0.personID == personID }?.name ?? "Someone"
    }

    private func snapshot() async throws -> ServerMessage {
        .snapshot(.init(station: try await view(), timeline: try await window(), listeners: machine.audience.counts.listeners))
    }

    /// Sleeps on the injected clock, then hands the machine the timer with
    /// the instant it was due (the machine ignores one it no longer expects).
    private func startTimer(_ timer: HubTimer, due: EpochMillis, after delay: Int64) {
        if timer == .ballot {
            // One line a song in a lobby: when a lobby misses an election,
            // the log says whether its ballot was ever timed.
            context.logger.info(
                "Station \(id): ballot \(machine.party.lobby.ballot?.id ?? "-") closes at \(due), in \(delay) ms")
        }
        timerTasks[timer]?.cancel()
        let sleep = Self.sleep(on: context.sleeper, for: .milliseconds(max(0, delay)))
        timerTasks[timer] = Task { [weak self] in
            guard (try? await sleep()) != nil else { return }
            await self?.timerFired(timer, due: due)
        }
    }

    /// The deadline is read now, not when the task starts, so time that
    /// passes before the task runs still counts.
    private static func sleep<C: Clock<Duration>>(on clock: C, for delay: Duration) -> @Sendable () async throws -> Void {
        let deadline = clock.now.advanced(by: delay)
        return { try await clock.sleep(until: deadline, tolerance: nil) }
    }

    private func send(_ message: ServerMessage, to connection: ConnectionID) {
        guard let queue = queues[connection], let text = try? Self.encode(message) else { return }
        if !queue.offer(.text(text)) { close(connection, reason: "a message") }
    }

    private func broadcast(_ message: ServerMessage, except skipped: ConnectionID?) {
        guard !queues.isEmpty, let text = try? Self.encode(message) else { return }
        broadcast(text: text, except: skipped)
    }

    private func broadcast(text: EncodedMessage, except skipped: ConnectionID?) {
        for (connection, queue) in queues where connection != skipped {
            // A listener too far behind is closed rather than silently
            // missing a message; it reconnects and catches up.
            if !queue.offer(.text(text)) { close(connection, reason: "a broadcast") }
        }
    }

    /// The update to everyone, each copy encoded once (see `SharedTracks.offerUpdate`).
    private func broadcastUpdate(_ window: TimelineWindow) {
        for connection in sharedTracks.offerUpdate(window, to: queues) { close(connection, reason: "an update") }
    }

    /// The party to everyone: with vote counts for the host and co-DJs,
    /// and for listeners only when the host shows them. Each copy is
    /// encoded once.
    private func broadcastParty() async throws {
        let staff = try Self.encode(.party(try await partyView(showCounts: true, staff: true)))
        let listeners = try Self.encode(
            .party(try await partyView(showCounts: machine.showsVoteCounts(to: .anonymous))))
        for connection in machine.connections {
            guard let queue = queues[connection.id] else { continue }
            if !queue.offer(.text(machine.isStaff(connection.seat) ? staff : listeners)) {
                close(connection.id, reason: "the party")
            }
        }
    }

    /// This node stops running the station (another node holds its lease
    /// now): every connection is closed, to reconnect wherever it runs,
    /// and no timer fires again. Nothing is saved: this node may not.
    func retire(reason: String, deleted: Bool = false) async {
        await inTurn { hub in
            hub.deleted = deleted
            hub.context.logger.notice("Station \(hub.id) stops here: \(reason)")
            for task in hub.timerTasks.values { task.cancel() }
            hub.timerTasks = [:]
            for queue in hub.queues.values { queue.finish() }
            hub.queues = [:]
            hub.context.onAir.publish(hub.id, tracks: nil)
        }
    }

    private func close(_ connection: ConnectionID, reason: String) {
        context.logger.notice("Closed listener \(connection) of station \(id): it was too far behind to take \(reason)")
        context.metrics.droppedApp.increment()
        queues[connection]?.finish()
    }

    /// The message's JSON, as bytes every listener's writer can share.
    /// Slashes unescaped: every track's URLs are in every update. Tracks in
    /// `naming` (unchanged) are written by id alone.
    static func encode(_ message: ServerMessage, naming known: KnownTracks? = nil) throws -> EncodedMessage {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        if let known { encoder.userInfo[KnownTracks.key] = known }
        return EncodedMessage(json: try encoder.encode(message))
    }
}

extension StationHub {
    /// A party's requests, votes and thumbs don't come from someone a block
    /// stands between and the station's owner (either blocked the other).
    fileprivate func refuseBlocked(_ command: StationCommand, from origin: StationMachine.Origin) async throws {
        switch command {
        case .request, .vote, .voteSkip, .thumb, .ballotVote, .volumeVote: break
        default: return
        }
        let person: String? =
            switch origin {
            case .connection(let id): machine.seat(of: id)?.personID
            case .request(_, let personID, _): personID
            }
        guard let person, let owner = record.ownerID, person != owner, let blocks = context.blocks else { return }
        if case .connection(let id) = origin, let seat = machine.seat(of: id) {
            // The seat already knows, from when it connected or a block since.
            if seat.apart.contains(owner) { throw HubError.request(.blocked) }
            return
        }
        if try await blocks.blockStands(between: person, and: owner) { throw HubError.request(.blocked) }
    }
}
