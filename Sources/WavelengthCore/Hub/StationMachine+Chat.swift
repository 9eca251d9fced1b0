/// The room (issue 14): the station's chat and the reactions to the song.
///
/// Messages ride the station's own connections, so the seat says who
/// posts and with what role, and a kicked or banned person (whose
/// connections are closing) can post nothing. Every message is saved
/// before anyone sees it.
extension StationMachine {
    /// Where a chat notice goes: the newest messages with the room's rules,
    /// as one connection may see it.
    public struct ChatRoomNotice: Sendable, Equatable {
        public var enabled: Bool
        public var guestsMayPost: Bool
        public var slowModeSeconds: Int
        /// The newest messages, oldest first (empty while the chat is off).
        public var messages: [ChatMessage]
        /// When this connection's person may post again, while muted.
        public var mutedUntil: EpochMillis?
        /// Everyone muted now, for moderators only.
        public var muted: [String: EpochMillis]?
        /// The reactions to the song playing so far.
        public var reactions: Reactions.Burst?
        /// The named people here now, to suggest for @mentions before
        /// they have said a word (at most `peopleShown`).
        public var people: [ChatAuthor] = []
    }

    /// How many of the people here a chat room names.
    public static let peopleShown = 50

    /// The named people connected, each once, in arrival order.
    func peopleHere() -> [ChatAuthor] {
        var seen = Set<String>()
        var people: [ChatAuthor] = []
        for connection in connections where !connection.closing {
            guard people.count < Self.peopleShown, let person = connection.seat.personID, seen.insert(person).inserted,
                let handle = connection.seat.mentionHandle
            else { continue }
            people.append(
                ChatAuthor(personID: person, name: connection.seat.name, handle: handle, isModerator: connection.seat.role >= .codj))
        }
        return people
    }

    /// A message from a connection: checked, saved, then sent to everyone
    /// (to its author with their `ref`, so the client knows it was kept).
    public mutating func chat(
        _ text: String, ref: String?, from id: ConnectionID, at now: EpochMillis,
        using rng: inout some RandomNumberGenerator
    ) throws(HubError) -> [HubAction] {
        guard party.settings.chat else { throw .chat(.off) }
        guard let connection = connections.first(where: { $0.id == id }), !connection.closing else {
            throw .forbidden(.chat)
        }
        let seat = connection.seat
        guard let personID = seat.personID else { throw .chat(.notAllowed(guestsOff: false)) }
        if seat.isGuest, seat.role < .codj, !party.settings.guestChat { throw .chat(.notAllowed(guestsOff: true)) }
        var room = chat
        let message: ChatMessage
        do {
            message = try room.post(
                text, id: ChatIDs.make(using: &rng),
                by: ChatAuthor(personID: personID, name: seat.name, handle: seat.handle, isModerator: seat.role >= .codj),
                at: now)
        } catch {
            throw .chat(error)
        }
        chat = room
        // A block stands between the author and these: neither hears the other.
        let apart = Set(connections.filter { $0.id != id && $0.seat.isApart(from: seat) }.map(\.id))
        return [
            .saveChat(.post(message, purgeBefore: now - settings.chatRetentionMillis)),
            apart.isEmpty
                ? .broadcast(.chat(message, ref: nil), except: id)
                : .broadcastSkipping(.chat(message, ref: nil), skipped: apart.union([id])),
            .send(id, .chat(message, ref: ref)),
        ]
    }

    /// A moderator's action. The owner and co-DJs may moderate; a mute
    /// can't fall on them, connected or not (`targetRole` is the muted
    /// person's role on the station as storage knows it).
    public mutating func moderate(
        _ action: ChatModeration, from id: ConnectionID, at now: EpochMillis, targetRole: StationRole? = nil
    ) throws(HubError) -> [HubAction] {
        guard let connection = connections.first(where: { $0.id == id }), !connection.closing else {
            throw .forbidden(.moderateChat)
        }
        guard StationPermissions.allows(connection.seat.role, .moderateChat) else { throw .forbidden(.moderateChat) }
        return try moderate(action, by: connection.seat.personID, at: now, targetRole: targetRole)
    }

    /// A moderator's action checked elsewhere (a report closed over HTTP,
    /// whose caller the server checked): `moderatorID` is who took it, if
    /// they are a person, so nobody mutes themselves.
    public mutating func moderate(
        _ action: ChatModeration, by moderatorID: String?, at now: EpochMillis, targetRole: StationRole? = nil
    ) throws(HubError) -> [HubAction] {
        switch action {
        case .delete(let messageID):
            chat.delete([messageID])
            return [
                .saveChat(.delete(messageIDs: [messageID])),
                .broadcast(.chatDeleted(messageIDs: [messageID], personID: nil, all: false), except: nil),
            ]
        case .deleteAllBy(let personID):
            let ids = chat.deleteAll(by: personID)
            return [
                .saveChat(.deleteAllBy(personID: personID)),
                .broadcast(.chatDeleted(messageIDs: ids, personID: personID, all: false), except: nil),
            ]
        case .clear:
            chat.clear()
            return [.saveChat(.clear), .broadcast(.chatDeleted(messageIDs: [], personID: nil, all: true), except: nil)]
        case .mute(let personID, let minutes):
            let moderatorHeld = connections.contains { $0.seat.personID == personID && $0.seat.role >= .codj }
            guard personID != moderatorID, !moderatorHeld, (targetRole ?? .none) < .codj else {
                throw .chat(.cannotMute)
            }
            let until: EpochMillis
            do { until = try chat.mute(personID, minutes: minutes, at: now) } catch { throw .chat(error) }
            return [.saveChat(.mute(personID: personID, until: until))] + roomChanged(for: personID)
        case .unmute(let personID):
            chat.unmute(personID)
            return [.saveChat(.unmute(personID: personID))] + roomChanged(for: personID)
        case .slowMode(let seconds):
            do { try chat.setSlowMode(seconds) } catch { throw .chat(error) }
            return [.saveChat(.slowMode(seconds: seconds)), .broadcastChatRoom]
        }
    }

    /// The room as `personID` and the moderators see it changed (a mute
    /// began or ended): they get it anew.
    private func roomChanged(for personID: String) -> [HubAction] {
        connections.filter { !$0.closing && ($0.seat.personID == personID || $0.seat.role >= .codj) }
            .map { .sendChatRoom($0.id) }
    }

    /// A block was made or lifted between two people: their seats here stop
    /// (or start) passing each other's chat, and each gets the chat again
    /// as they may see it now.
    public mutating func blockChanged(between one: String, and other: String, stands: Bool) -> [HubAction] {
        var actions: [HubAction] = []
        for index in connections.indices {
            guard let person = connections[index].seat.personID, person == one || person == other else { continue }
            let them = person == one ? other : one
            if stands { connections[index].seat.apart.insert(them) } else { connections[index].seat.apart.remove(them) }
            actions.append(.sendChatRoom(connections[index].id))
        }
        return actions
    }

    /// A reaction to the song that plays. Anyone listening may react,
    /// within a limit per person (signed out: per address); reactions go
    /// out in bursts.
    public mutating func react(_ emoji: String, on entryID: EntryID, from id: ConnectionID, at now: EpochMillis)
        throws(HubError) -> [HubAction]
    {
        guard let connection = connections.first(where: { $0.id == id }), !connection.closing else {
            throw .forbidden(.vote)
        }
        guard let current = station.timeline.current(at: station.timelineTime(at: now)), current.id == entryID else {
            throw .chat(.notCurrent)
        }
        let key = connection.seat.limitKey(on: id)
        let startsBurst: Bool
        do { startsBurst = try reactions.react(emoji, on: current, by: key, at: now) } catch { throw .chat(error) }
        guard startsBurst, timers[.reactions] == nil else { return [] }
        return startTimer(.reactions, at: now + Reactions.burstMillis)
    }

    /// The burst timer fired: everyone sees what came in, and the song's
    /// totals are kept. Warm reactions teach the robot DJ, like a faint
    /// thumb up (saved with the station's next save).
    mutating func reactionsDue(robot: RobotInputs = .none) -> [HubAction] {
        guard let burst = reactions.flush() else { return [] }
        chat.touch()
        if burst.burst.keys.contains(where: Reactions.warm.contains) {
            learn(.reacted, trackID: burst.trackID, robot: robot)
        }
        let recorded = HubAction.recordReactions(burst)
        guard !connections.isEmpty else { return [recorded] }
        return [recorded, .broadcast(.reactions(burst), except: nil)]
    }

    /// The song's reaction totals as kept before a restart: they count on.
    public mutating func resumeReactions(entryID: EntryID, trackID: TrackID, totals: [String: Int]) {
        reactions.resume(entryID: entryID, trackID: trackID, totals: totals)
    }

    /// The chat as connection `id` may see it.
    public func chatRoom(for id: ConnectionID, at now: EpochMillis) -> ChatRoomNotice? {
        guard let seat = seat(of: id) else { return nil }
        let current = station.timeline.current(at: station.timelineTime(at: now))
        let tally = reactions
        var song: Reactions.Burst?
        if let entryID = tally.entryID, let trackID = tally.trackID, entryID == current?.id, !tally.totals.isEmpty {
            song = Reactions.Burst(entryID: entryID, trackID: trackID, burst: [:], totals: tally.totals)
        }
        return ChatRoomNotice(
            enabled: party.settings.chat, guestsMayPost: party.settings.guestChat, slowModeSeconds: chat.slowModeSeconds,
            messages: party.settings.chat ? chat.recent.filter { !seat.apart.contains($0.personID) } : [],
            mutedUntil: seat.personID.flatMap { chat.mutedUntil($0, at: now) },
            muted: seat.role >= .codj ? chat.activeMutes(at: now) : nil, reactions: song, people: peopleHere())
    }

    /// Whether connection `id` sees the chat as everyone does (no mute of
    /// its own, no moderator's list), so one encoded copy serves it.
    public func seesCommonChatRoom(_ id: ConnectionID, at now: EpochMillis) -> Bool {
        guard let seat = seat(of: id) else { return false }
        return seat.role < .codj && seat.apart.isEmpty && seat.personID.map { chat.mutedUntil($0, at: now) == nil } ?? true
    }
}

/// Chat message ids: random, like entry ids, with their own letter.
public enum ChatIDs {
    public static func make(using rng: inout some RandomNumberGenerator) -> String {
        let hex = String(rng.next(), radix: 16)
        return "m" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}
