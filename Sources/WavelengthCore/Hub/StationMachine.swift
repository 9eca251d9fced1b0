/// The rules of one station while the server runs, as a value type.
///
/// Every event is a `mutating` method that returns the actions to perform
/// (save, send, broadcast, close, start or cancel a timer), in the style of
/// swift-websocket's state machines. The clock and randomness come from the
/// caller, so every rule is tested with no I/O, no sockets and no sleeps.
///
/// The owner (the server's `StationHub`) performs the actions in order. It
/// runs each event on a copy and keeps the copy only when the copy's saves
/// succeeded, so state a client can see is always state on disk.
public struct StationMachine: Sendable {
    public struct Settings: Sendable, Equatable {
        public var robot: RobotDJ
        /// How long a dropped DJ has to come back before a co-DJ is promoted.
        public var djGraceMillis: Int64
        /// How far ahead skips and resumes take effect, so every listener
        /// changes together.
        public var commitLead: Int64
        /// How long chat messages are kept (7 days by default).
        public var chatRetentionMillis: Int64

        public init(
            robot: RobotDJ = RobotDJ(), djGraceMillis: Int64 = 20_000, commitLead: Int64 = 300,
            chatRetentionMillis: Int64 = 7 * 86_400_000
        ) {
            self.robot = robot
            self.chatRetentionMillis = chatRetentionMillis
            self.djGraceMillis = djGraceMillis
            self.commitLead = commitLead
        }
    }

    /// Where a command came from: a live connection (its seat's current role
    /// counts) or an HTTP request (the role the gate found).
    public enum Origin: Sendable, Equatable {
        case connection(ConnectionID)
        /// Over HTTP: the role the gate found, and who asked (requests and
        /// votes need a person).
        case request(StationRole, personID: String? = nil, name: String = "")
    }

    /// What a command produced.
    public struct CommandResult: Sendable, Equatable {
        public var revision: Int64
        public var duplicate: Bool
        public var actions: [HubAction]
    }

    public let settings: Settings
    public internal(set) var station: StationState
    public internal(set) var ledger: CommandLedger
    /// The party: mode, request settings, the queue and the skip votes.
    public internal(set) var party: PartyState
    /// What this station's room likes, learned from its reactions.
    public internal(set) var taste: TasteModel
    /// What the taste learned since the last save.
    var tasteChange = TasteModel.Change()
    /// Whether the lobby's ballot or suggestions changed since the last save.
    var lobbyChanged = false
    /// Credibility that changed since the last save.
    var credibilityChange: [String: Credibility] = [:]
    /// Every open connection, in arrival order: the one list of who is here.
    public internal(set) var connections: [Connection] = []
    /// The connection that holds the DJ booth.
    public private(set) var dj: ConnectionID?
    /// Raised each time the booth changes hands; commands carry the epoch
    /// they were sent under, so one sent to a former DJ is refused.
    public private(set) var djEpoch: Int64 = 0
    /// When the running timers fire; nil when not running.
    public private(set) var timers: [HubTimer: EpochMillis] = [:]
    /// When the listener count was last sent to everyone.
    private var countSentAt: EpochMillis?
    /// The count goes out at most once per this, however many come and go:
    /// sending it on every join made 2,000 joins cost 2,000² messages.
    public static let listenerCountInterval: EpochMillis = 1000
    /// The station's listener limit (owner and co-DJs always get in).
    public var maxListeners: Int?
    /// Everyone listening, app and stream, by person: the one count.
    public internal(set) var audience = Audience()
    /// The per-minute series the count makes.
    var meter = AudienceMeter()
    /// The most people listening at once since plays last went to history.
    var playPeak = 0
    /// The station's chat: the newest messages, mutes, slow mode.
    public internal(set) var chat: ChatRoom
    /// The reactions to the song that plays.
    public internal(set) var reactions = Reactions()
    /// How many room calibration messages each listener sent lately.
    var roomSignals = RoomSignalLimit()
    /// The room calibrations open now, and who takes part in each.
    var roomCalls = RoomCalls()
    /// Raised when a named person comes or goes: the chat room's list of
    /// people to mention is made again then.
    public private(set) var rosterVersion = 0

    public init(
        station: StationState, recentCommands: [AppliedCommand] = [], maxListeners: Int? = nil,
        settings: Settings = Settings(), party: PartyState = PartyState(), taste: TasteModel = TasteModel(),
        chat: ChatRoom = ChatRoom()
    ) {
        self.station = station
        self.chat = chat
        self.party = party
        self.taste = taste
        self.settings = settings
        self.maxListeners = maxListeners
        var ledger = CommandLedger()
        for command in recentCommands { ledger.record(command.id, revision: command.revision) }
        self.ledger = ledger
    }

    /// Open connections (the stream's encoder among them): whether the
    /// station is awake. The station's count of people is `audience`.
    public var listenerCount: Int { connections.count }

    public func seat(of id: ConnectionID) -> Seat? {
        // From the end: the newest connection, just arrived, is the one asked
        // about most (a crowd joining would otherwise scan the whole roster each).
        connections.last { $0.id == id }?.seat
    }

    // MARK: Listeners

    /// Whether a connection arriving now can lead to a save: only the first
    /// listener wakes the station. (The hub runs the others in place: an
    /// event's copy of the machine would copy the whole roster.)
    public var arrivalMaySave: Bool { connections.isEmpty }

    /// Whether a connection leaving now can lead to a save: only the last
    /// one puts the station to sleep.
    public var departureMaySave: Bool { connections.count <= 1 }

    /// A connection opened. A quiet station goes back on the air first (and
    /// is saved); the newcomer gets a snapshot, or `resumed` when `since`
    /// shows it missed nothing, then its access and its booth role.
    public mutating func connect(
        _ id: ConnectionID, seat: Seat, since: Int64?, at now: EpochMillis, robot: RobotInputs,
        using rng: inout some RandomNumberGenerator
    ) throws(HubError) -> [HubAction] {
        if let limit = maxListeners, seat.role < .codj, connections.count >= limit {
            throw .stationFull(limit: limit)
        }
        var actions: [HubAction] = []
        if connections.isEmpty {
            let wasQuiet = !station.isOnAir
            var outcome = robotWake(at: now, robot: robot, using: &rng)
            let promoted = promoteRequest(at: now, robot: robot, using: &rng)
            outcome.merge(promoted.outcome)
            // Waking clears `quietSince`, which storage must know too.
            if outcome.needsSave || wasQuiet || promoted.requestsChanged {
                actions.append(.save(save(outcome, command: nil)))
            }
            if promoted.requestsChanged { actions.append(.broadcastRequests) }
        }
        connections.append(Connection(id: id, seat: seat))
        if seat.personID != nil { rosterVersion += 1 }
        if seat.hosting != nil { actions += hostingChanged(at: now) }
        let counted = seat.audience.map { arrived(Self.identity(of: seat, on: id), kind: $0, at: now) } ?? []
        if let since, since == station.revision {
            actions.append(.send(id, .resumed(revision: station.revision, listeners: audience.counts.listeners)))
        } else {
            actions.append(.sendSnapshot(id, reply: false))
        }
        actions.append(.send(id, .access(seat.role)))
        actions.append(.sendChatRoom(id))
        if party.mode != .dj { actions.append(.sendRequests(id)) }
        if party.isLobby {
            let opened = openBallot(at: now, robot: robot, using: &rng)
            actions += opened
            if let person = seat.personID, !opened.contains(where: { if case .send = $0 { true } else { false } }) {
                actions += standings(of: [person]).filter { if case .send(id, _) = $0 { true } else { false } }
            }
        }
        actions += counted.map { action in
            // The newcomer's snapshot carries the count already.
            if case .broadcast(let notice, nil) = action, case .listeners = notice { .broadcast(notice, except: id) } else { action }
        }
        if seat.role == .owner && dj != id || seat.role == .codj && dj == nil && timers[.promotion] == nil {
            // The owner (back) on the air takes the booth; a co-DJ takes an
            // empty one (while the grace period runs it waits for the DJ).
            actions += handOver(to: id)
        } else {
            actions.append(.send(id, .role(isDJ: false, epoch: djEpoch)))
        }
        actions += reschedule(at: now)
        return actions
    }

    /// A connection closed (or was lost). The DJ leaving starts the grace
    /// period; the last listener leaving puts the station to sleep.
    public mutating func disconnect(_ id: ConnectionID, at now: EpochMillis) -> [HubAction] {
        guard let index = connections.firstIndex(where: { $0.id == id }) else { return [] }
        let seat = connections.remove(at: index).seat
        if seat.personID != nil { rosterVersion += 1 }
        var actions: [HubAction] = [.close(id)]
        for call in roomCalls.left(id) { actions += callEnded(call) }
        if let kind = seat.audience {
            actions += left(Self.identity(of: seat, on: id), kind: kind, at: now)
        }
        if dj == id {
            dj = nil
            actions.append(.broadcast(.dj(epoch: djEpoch, present: false), except: nil))
            actions += startTimer(.promotion, at: now + settings.djGraceMillis)
        }
        guard connections.isEmpty else { return actions }
        // Tree in the forest: nobody listens, so stop all work.
        actions += cancelTimer(.tick) + cancelTimer(.promotion) + cancelTimer(.listenerCount) + cancelTimer(.ballot)
        // The last reactions still count for the song.
        actions += cancelTimer(.reactions)
        actions += reactionsDue()
        let wasOnAir = station.isOnAir
        let outcome = station.goQuiet(at: now)
        if outcome.needsSave || wasOnAir {
            actions.append(.save(save(outcome, command: nil)))
        }
        return actions
    }

    /// A client asked for a fresh snapshot (it saw a gap in the sequence).
    public func resync(_ id: ConnectionID) -> [HubAction] {
        guard seat(of: id) != nil else { return [] }
        return [.sendSnapshot(id, reply: true)]
    }

    // MARK: Commands

    /// Applies a DJ command once.
    ///
    /// - Parameters:
    ///   - appliedBefore: the revision storage recorded for `commandID`, for
    ///     ids older than the in-memory ledger (nil when unknown).
    ///   - track: the library track a queue command names, looked up by the hub.
    public mutating func command(
        _ command: StationCommand, id commandID: String, epoch: Int64?, from origin: Origin, at now: EpochMillis,
        appliedBefore: Int64? = nil, track: PoolTrack?, robot: RobotInputs, using rng: inout some RandomNumberGenerator
    ) throws(HubError) -> CommandResult {
        // The role is read here, in the same step that applies the command,
        // so a co-DJ revoked while their command waited is refused.
        let asker = self.asker(origin)
        if case .thumb(let entryID, let up) = command {
            return try thumb(
                up, on: entryID, id: commandID, by: asker, at: now, appliedBefore: appliedBefore, robot: robot)
        }
        if command.operation != .command {
            return try partyCommand(
                command, id: commandID, by: asker, at: now, appliedBefore: appliedBefore, track: track, robot: robot,
                using: &rng)
        }
        let role = asker.role
        guard StationPermissions.allows(role, .command) else { throw .forbidden(.command) }
        if let revision = ledger.revision(for: commandID) ?? appliedBefore {
            return CommandResult(revision: revision, duplicate: true, actions: [])
        }
        if let epoch, epoch != djEpoch { throw .staleEpoch(current: djEpoch, given: epoch) }
        // A skip of the song playing tells the robot the room didn't want it.
        var skipped: TimelineEntry?
        if case .skip(let entryID) = command, let current = station.timeline.current(at: station.timelineTime(at: now)),
            entryID == nil || entryID == current.id
        {
            skipped = current
        }
        var next = station
        let nextBefore = station.timeline.upcoming(at: station.timelineTime(at: now)).first?.id
        var outcome: StationState.Outcome
        do {
            outcome = try next.apply(command, at: now, lead: settings.commitLead, track: { _ in track }, using: &rng)
        } catch {
            throw .timeline(error)
        }
        let applied = AppliedCommand(id: commandID, revision: next.revision, appliedAt: now)
        // A skip or an edit may leave the robot short of its horizon: top it
        // up in the same transaction, so the command and what followed from
        // it are saved (or refused) together.
        if !connections.isEmpty {
            outcome.merge(robotFill(&next, at: now, robot: robot, using: &rng))
        }
        station = next
        // The DJ took a request that was lined up off the timeline: the
        // host said no to it, so it goes.
        if case .remove(let entryID) = command, let request = party.queue.request(linedUpAs: entryID) {
            _ = try? party.queue.withdraw(request.id, by: "", isHost: true)
        }
        var reactions: [HubAction] = []
        if !connections.isEmpty {
            if let skipped {
                learn(.skipped, trackID: skipped.trackID, robot: robot)
                reactions = backersReact(.skipped, to: skipped.id, by: nil)
            }
            learnCompletions(outcome.played, robot: robot)
        }
        // The DJ may have taken the request that was up next off the timeline.
        let promoted = connections.isEmpty ? Promotion() : promoteRequest(at: now, robot: robot, using: &rng)
        outcome.merge(promoted.outcome)
        ledger.record(commandID, revision: applied.revision)
        // A host's pick right after the song playing ends the vote on that place.
        let overruled = ballotTakenByTheHost(at: now, nextBefore: nextBefore, name: asker.name)
        // A skip starts another song: its ballot opens.
        let ballot = openBallot(at: now, robot: robot, using: &rng)
        var actions: [HubAction] = [.save(save(outcome, command: applied))]
        if !connections.isEmpty { actions.append(.broadcastUpdate) }
        if promoted.requestsChanged || party.takesRequests && skipped != nil { actions.append(.broadcastRequests) }
        actions += reactions + overruled + ballot + reschedule(at: now)
        return CommandResult(revision: applied.revision, duplicate: false, actions: actions)
    }

    // MARK: Time passing

    /// A timer fired. One whose instant is no longer the running one (it was
    /// replaced or cancelled while it fired) does nothing.
    public mutating func timerFired(
        _ timer: HubTimer, due: EpochMillis, at now: EpochMillis, robot: RobotInputs,
        using rng: inout some RandomNumberGenerator
    ) -> [HubAction] {
        guard timers[timer] == due else { return [] }
        timers[timer] = nil
        switch timer {
        case .tick:
            guard !connections.isEmpty else { return [] }
            var outcome = robotFill(at: now, robot: robot, using: &rng)
            let promoted = promoteRequest(at: now, robot: robot, using: &rng)
            outcome.merge(promoted.outcome)
            learnCompletions(outcome.played, robot: robot)
            // A new song: the ballot for the one after it opens.
            let ballot = openBallot(at: now, robot: robot, using: &rng)
            var actions: [HubAction] = []
            if outcome.needsSave || !tasteChange.isEmpty || promoted.requestsChanged {
                actions.append(.save(save(outcome, command: nil)))
            }
            if outcome.changed { actions.append(.broadcastUpdate) }
            // A new song: its skip votes start from nothing.
            if promoted.requestsChanged || party.mode == .requests && outcome.changed { actions.append(.broadcastRequests) }
            return actions + ballot + reschedule(at: now)
        case .ballot:
            return closeBallot(at: now, robot: robot, using: &rng)
        case .promotion:
            // The grace period is over either way: a co-DJ who arrives later
            // takes the empty booth on arrival. Listeners are never promoted.
            guard dj == nil, let heir = connections.first(where: { !$0.closing && $0.seat.role >= .codj })
            else { return [] }
            return handOver(to: heir.id)
        case .listenerCount:
            guard !connections.isEmpty else { return [] }
            countSentAt = now
            return [.broadcast(.listeners(count: audience.counts.listeners), except: nil)]
        case .audienceMinute:
            return meterAdvanced(to: now)
        case .hosting:
            return hostingChanged(at: now)
        case .reactions:
            return reactionsDue(robot: robot)
        }
    }

    /// Someone came or went. The count goes out at once when none went out
    /// in the last `listenerCountInterval`, else once at the end of it
    /// (with whatever the count is by then).
    mutating func countChanged(at now: EpochMillis, except: ConnectionID?) -> [HubAction] {
        guard timers[.listenerCount] == nil, !connections.isEmpty else { return [] }
        if let sent = countSentAt, now - sent < Self.listenerCountInterval {
            return startTimer(.listenerCount, at: sent + Self.listenerCountInterval)
        }
        countSentAt = now
        return [.broadcast(.listeners(count: audience.counts.listeners), except: except)]
    }

    /// Whether a tick is needed: at the end of the current entry, only while
    /// someone listens and the station isn't paused.
    mutating func reschedule(at now: EpochMillis) -> [HubAction] {
        guard !connections.isEmpty, station.pausedAt == nil,
            let next = station.timeline.entries.first(where: { $0.expiration > now })
        else { return cancelTimer(.tick) }
        guard timers[.tick] != next.expiration else { return [] }
        return startTimer(.tick, at: next.expiration)
    }

    mutating func startTimer(_ timer: HubTimer, at instant: EpochMillis) -> [HubAction] {
        timers[timer] = instant
        return [.startTimer(timer, at: instant)]
    }

    mutating func cancelTimer(_ timer: HubTimer) -> [HubAction] {
        guard timers.removeValue(forKey: timer) != nil else { return [] }
        return [.cancelTimer(timer)]
    }

    // MARK: The DJ booth and people

    /// Gives the booth to a connection and tells everyone.
    private mutating func handOver(to id: ConnectionID) -> [HubAction] {
        var actions = cancelTimer(.promotion)
        djEpoch += 1
        if let previous = dj, previous != id {
            actions.append(.send(previous, .role(isDJ: false, epoch: djEpoch)))
        }
        dj = id
        actions.append(.send(id, .role(isDJ: true, epoch: djEpoch)))
        // Everyone is told who has the booth: a co-DJ promoted after the
        // DJ dropped, and the room, see the change.
        actions.append(.broadcast(.dj(epoch: djEpoch, present: true, name: seat(of: id)?.name), except: nil))
        return actions
    }

    /// The owner granted or revoked a role: every connection the person
    /// holds changes at once. A co-DJ who loses the role loses the booth; a
    /// new co-DJ takes an empty booth (unless the grace period still waits
    /// for the DJ to come back).
    ///
    /// With `stillHosting` false the person no longer hosts any show (the
    /// owner revoked them: a revocation wins over any show), so the role
    /// given is all they have.
    public mutating func roleChanged(
        personID: String, to role: StationRole, stillHosting: Bool = true, at now: EpochMillis
    ) -> [HubAction] {
        // A host keeps co-DJ until their show ends; the new role is theirs
        // apart from hosting.
        var effective = role
        for index in connections.indices where connections[index].seat.personID == personID {
            guard stillHosting else {
                connections[index].seat.hosting = nil
                continue
            }
            guard var window = connections[index].seat.hosting else { continue }
            window.baseRole = role
            connections[index].seat.hosting = window
            effective = window.role(at: now)
        }
        return applyRole(personID: personID, role: effective, at: now)
    }

    /// Every connection the person holds takes `role`.
    mutating func applyRole(personID: String, role: StationRole, at now: EpochMillis) -> [HubAction] {
        var actions: [HubAction] = []
        var granted: ConnectionID?
        for index in connections.indices where connections[index].seat.personID == personID {
            let id = connections[index].id
            connections[index].seat.role = role
            actions.append(.send(id, .access(role)))
            if role < .codj, dj == id {
                dj = nil
                actions.append(.broadcast(.dj(epoch: djEpoch, present: false), except: nil))
                actions += startTimer(.promotion, at: now + settings.djGraceMillis)
            }
            if role >= .codj, granted == nil, !connections[index].closing { granted = id }
        }
        if let granted, dj == nil, timers[.promotion] == nil {
            actions += handOver(to: granted)
        }
        return actions
    }

    /// Someone was kicked, banned or left: everyone (them included) is told
    /// why, and their connections close. Until they are gone they may do
    /// nothing.
    public mutating func remove(personID: String, name: String, reason: String) -> [HubAction] {
        var actions: [HubAction] = [.broadcast(.removed(personID: personID, name: name, reason: reason), except: nil)]
        for index in connections.indices where connections[index].seat.personID == personID {
            connections[index].closing = true
            actions.append(.close(connections[index].id))
        }
        return actions
    }

    /// Who may listen changed: the connections for which `mayStay` says no
    /// are told why and closed; the rest stay.
    public mutating func accessChanged(mayStay: (Seat) -> Bool) -> [HubAction] {
        var actions: [HubAction] = []
        for index in connections.indices where !connections[index].closing && !mayStay(connections[index].seat) {
            connections[index].closing = true
            actions += [.send(connections[index].id, .accessLost), .close(connections[index].id)]
        }
        return actions
    }

    /// The owner ended the session: everyone is told, then every connection closes.
    public mutating func end() -> [HubAction] {
        var actions: [HubAction] = [.broadcast(.ended, except: nil)]
        for index in connections.indices {
            connections[index].closing = true
            actions.append(.close(connections[index].id))
        }
        return actions
    }

    /// New settings: everyone gets a fresh snapshot.
    public mutating func settingsChanged(
        maxListeners: Int?, mode: ProgrammingMode? = nil, requests: RequestSettings? = nil
    ) -> [HubAction] {
        self.maxListeners = maxListeners
        let partyChanged = mode.map { $0 != party.mode } ?? false || requests.map { $0 != party.settings } ?? false
        if let mode { party.mode = mode }
        let chatChanged = requests.map { $0.chat != party.settings.chat || $0.guestChat != party.settings.guestChat } ?? false
        if let requests { party.settings = requests }
        if chatChanged { chat.touch() }
        guard !connections.isEmpty else { return [] }
        return (partyChanged ? [.broadcastSnapshot, .broadcastRequests] : [.broadcastSnapshot])
            + (chatChanged ? [.broadcastChatRoom] : [])
    }
}
