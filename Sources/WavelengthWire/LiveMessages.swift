/// The version of the station WebSocket protocol. Clients name it with
/// `?v=` on the URL; a version the server does not speak gets an
/// `unsupported_version` error and the connection is closed.
///
/// - 1: every `update` carries each entry's whole track.
/// - 2: an `update` names a track the client already holds by id alone
///   (see `KnownTracks`).
public enum LiveProtocol {
    public static let version = 2
    /// The versions this server speaks.
    public static let supported = 1...2
}

/// What a client sends on a station's WebSocket. Every message is a JSON
/// object with a `type`.
public enum ClientMessage: Sendable, Equatable {
    /// `{"type":"command","id":"c-1","command":{"op":"skip"}}`
    case command(CommandRequest)
    /// `{"type":"ping","nonce":"…"}`: answered with a pong carrying the server's stamps.
    case ping(nonce: String?)
    /// `{"type":"resync"}`: asks for a fresh snapshot, e.g. after a gap in `seq`.
    case resync
    /// `{"type":"chat","id":"m-1","text":"hello @ana"}`: a chat message. The
    /// author gets it back with `ref` = `id` once it is kept, or an `error`
    /// with that id.
    case chat(id: String?, text: String)
    /// `{"type":"react","id":"r-1","entryID":"e…","emoji":"🔥"}`: a reaction
    /// to the song playing. A refusal is an `error` with the `id`, when one
    /// was sent.
    case react(id: String? = nil, entryID: EntryID, emoji: String)
    /// `{"type":"moderate","id":"x","action":"mute","personID":"p","minutes":15}`:
    /// the owner's or a co-DJ's action on the chat (`ChatModeration`).
    case moderate(id: String?, ChatModeration)
    /// A room calibration's message, passed on to the station's other
    /// listeners (`RoomSignal`).
    case room(RoomSignal)
}

/// What the server sends on a station's WebSocket.
public enum ServerMessage: Sendable, Equatable {
    /// First message on a new connection, and after a reconnect that missed changes.
    case snapshot(Snapshot)
    /// After a reconnect with nothing missed: the client's state is current.
    case resumed(revision: Int64, serverTime: EpochMillis, listeners: Int)
    /// The timeline changed.
    case update(TimelineWindow)
    /// The number of listeners changed.
    case listeners(count: Int)
    /// A command was applied (or had been, when `duplicate`).
    case ack(CommandAck)
    /// A message was refused. `id` names the command when there was one.
    case error(id: String?, code: String, message: String)
    /// `serverReceived` and `serverSent` are the server clock (ms, fractional)
    /// when the ping arrived and when the pong left: the middle two of the four
    /// NTP timestamps.
    case pong(nonce: String?, serverTime: EpochMillis, serverReceived: Double, serverSent: Double)
    /// This connection's role, sent on connect and whenever it changes.
    case role(role: String, epoch: Int64)
    /// The DJ role changed hands (`epoch` rose) to `name`; `present` is
    /// false while nobody holds it (the DJ dropped and the grace period runs).
    case dj(epoch: Int64, present: Bool, name: String? = nil)
    /// What this connection's person may do on the station, sent on connect
    /// and when it changes (the owner grants or revokes co-DJ).
    case access(role: StationRole)
    /// Someone was removed (`kicked`, `banned`) or left; their connections
    /// close next. A client that reads its own id must not reconnect.
    case removed(person: PersonRef, reason: String)
    /// The owner ended the session: every connection closes next.
    case ended
    /// The party: mode, rules, the waiting requests and the skip vote. Sent
    /// on connect (with your own votes) and whenever it changes.
    case party(PartyView)
    /// Your own votes, by request, after you voted.
    case votes([RequestID: Vote])
    /// The host overrode the room (`moved`, `vetoed` or `playedNow` a request).
    case hostOverride(kind: String, trackID: TrackID, requesterName: String)
    /// The thumbs on the song playing (to the owner and co-DJs).
    case thumbs(entryID: EntryID, up: Int, down: Int)
    /// Your standing in the lobby: your vote on the open ballot, and how
    /// much your vote counts and why. Sent on joining a lobby, after you
    /// vote, when a ballot opens and when the room reacts to your picks.
    case standing(StandingView)
    /// The station's loudness target or level changed: players move to it
    /// at `since`, together.
    case sound(SoundView)
    /// A chat message; `ref` is present only for its author (their `id`).
    case chat(message: ChatMessageView, ref: String?)
    /// The chat as you may see it: on connect, and when its rules change.
    case chatRoom(ChatRoomView)
    /// Messages were deleted: these ids; when `personID` is set, all of
    /// that person's; when `all`, every message.
    case chatDeleted(messageIDs: [String], personID: String?, all: Bool)
    /// A burst of reactions to the song playing, with its totals.
    case reactions(ReactionsView)
    /// A guest's voice clip waits for approval (to the owner and co-DJs).
    case clipWaiting(ClipView)
    /// Another listener's room calibration message, with `from` set.
    case room(RoomSignal)

    public struct Snapshot: Sendable, Codable, Equatable {
        public var station: StationView
        public var timeline: TimelineWindow
        public var listeners: Int

        public init(station: StationView, timeline: TimelineWindow, listeners: Int) {
            self.station = station
            self.timeline = timeline
            self.listeners = listeners
        }

        public var revision: Int64 { timeline.revision }
        public var serverTime: EpochMillis { timeline.serverTime }
    }
}

private enum TypeKey: String, CodingKey {
    case type
}

extension ClientMessage: Codable {
    private enum Keys: String, CodingKey {
        case id, command, nonce, epoch, text, entryID, emoji, signal
    }

    public init(from decoder: any Decoder) throws {
        let type = try decoder.container(keyedBy: TypeKey.self).decode(String.self, forKey: .type)
        let container = try decoder.container(keyedBy: Keys.self)
        switch type {
        case "command":
            self = .command(
                CommandRequest(
                    id: try container.decode(String.self, forKey: .id),
                    command: try container.decode(StationCommand.self, forKey: .command),
                    epoch: try container.decodeIfPresent(Int64.self, forKey: .epoch)))
        case "ping":
            self = .ping(nonce: try container.decodeIfPresent(String.self, forKey: .nonce))
        case "resync":
            self = .resync
        case "chat":
            self = .chat(
                id: try container.decodeIfPresent(String.self, forKey: .id),
                text: try container.decode(String.self, forKey: .text))
        case "react":
            self = .react(
                id: try container.decodeIfPresent(String.self, forKey: .id),
                entryID: try container.decode(String.self, forKey: .entryID),
                emoji: try container.decode(String.self, forKey: .emoji))
        case "moderate":
            self = .moderate(id: try container.decodeIfPresent(String.self, forKey: .id), try ChatModeration(from: decoder))
        case "room":
            self = .room(try container.decode(RoomSignal.self, forKey: .signal))
        default:
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: [TypeKey.type],
                    debugDescription:
                        "Unknown message type '\(type.prefix(40))'; expected command, ping, resync, chat, react, moderate or room."))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var typeContainer = encoder.container(keyedBy: TypeKey.self)
        var container = encoder.container(keyedBy: Keys.self)
        switch self {
        case .command(let request):
            try typeContainer.encode("command", forKey: .type)
            try container.encode(request.id, forKey: .id)
            try container.encode(request.command, forKey: .command)
            try container.encodeIfPresent(request.epoch, forKey: .epoch)
        case .ping(let nonce):
            try typeContainer.encode("ping", forKey: .type)
            try container.encodeIfPresent(nonce, forKey: .nonce)
        case .resync:
            try typeContainer.encode("resync", forKey: .type)
        case .chat(let id, let text):
            try typeContainer.encode("chat", forKey: .type)
            try container.encodeIfPresent(id, forKey: .id)
            try container.encode(text, forKey: .text)
        case .react(let id, let entryID, let emoji):
            try typeContainer.encode("react", forKey: .type)
            try container.encodeIfPresent(id, forKey: .id)
            try container.encode(entryID, forKey: .entryID)
            try container.encode(emoji, forKey: .emoji)
        case .moderate(let id, let action):
            try typeContainer.encode("moderate", forKey: .type)
            try container.encodeIfPresent(id, forKey: .id)
            try action.encode(to: encoder)
        case .room(let signal):
            try typeContainer.encode("room", forKey: .type)
            try container.encode(signal, forKey: .signal)
        }
    }
}

extension ServerMessage: Codable {
    private enum Keys: String, CodingKey {
        case snapshot, revision, serverTime, listeners, timeline, count, ack, id, code, message, nonce
        case serverReceived, serverSent, role, epoch, present, name, person, reason
        case party, votes, kind, trackID, requesterName, entryID, up, down, standing, sound
        case ref, room, messageIDs, all, reactions, clip, signal
    }

    public var type: String {
        switch self {
        case .snapshot: "snapshot"
        case .resumed: "resumed"
        case .update: "update"
        case .listeners: "listeners"
        case .ack: "ack"
        case .error: "error"
        case .pong: "pong"
        case .role: "role"
        case .dj: "dj"
        case .access: "access"
        case .removed: "removed"
        case .ended: "ended"
        case .party: "party"
        case .votes: "votes"
        case .hostOverride: "hostOverride"
        case .thumbs: "thumbs"
        case .standing: "standing"
        case .sound: "sound"
        case .chat: "chat"
        case .chatRoom: "chatRoom"
        case .chatDeleted: "chatDeleted"
        case .reactions: "reactions"
        case .clipWaiting: "clipWaiting"
        case .room: "room"
        }
    }

    public init(from decoder: any Decoder) throws {
        let type = try decoder.container(keyedBy: TypeKey.self).decode(String.self, forKey: .type)
        let c = try decoder.container(keyedBy: Keys.self)
        switch type {
        case "snapshot": self = .snapshot(try c.decode(Snapshot.self, forKey: .snapshot))
        case "resumed":
            self = .resumed(
                revision: try c.decode(Int64.self, forKey: .revision),
                serverTime: try c.decode(Int64.self, forKey: .serverTime),
                listeners: try c.decode(Int.self, forKey: .listeners))
        case "update": self = .update(try c.decode(TimelineWindow.self, forKey: .timeline))
        case "listeners": self = .listeners(count: try c.decode(Int.self, forKey: .count))
        case "ack": self = .ack(try c.decode(CommandAck.self, forKey: .ack))
        case "error":
            self = .error(
                id: try c.decodeIfPresent(String.self, forKey: .id), code: try c.decode(String.self, forKey: .code),
                message: try c.decode(String.self, forKey: .message))
        case "pong":
            self = .pong(
                nonce: try c.decodeIfPresent(String.self, forKey: .nonce),
                serverTime: try c.decode(Int64.self, forKey: .serverTime),
                serverReceived: try c.decode(Double.self, forKey: .serverReceived),
                serverSent: try c.decode(Double.self, forKey: .serverSent))
        case "role":
            self = .role(role: try c.decode(String.self, forKey: .role), epoch: try c.decode(Int64.self, forKey: .epoch))
        case "dj":
            self = .dj(
                epoch: try c.decode(Int64.self, forKey: .epoch), present: try c.decode(Bool.self, forKey: .present),
                name: try c.decodeIfPresent(String.self, forKey: .name))
        case "access": self = .access(role: try c.decode(StationRole.self, forKey: .role))
        case "removed":
            self = .removed(
                person: try c.decode(PersonRef.self, forKey: .person), reason: try c.decode(String.self, forKey: .reason))
        case "ended": self = .ended
        case "party": self = .party(try c.decode(PartyView.self, forKey: .party))
        case "votes": self = .votes(try c.decode([RequestID: Vote].self, forKey: .votes))
        case "hostOverride":
            self = .hostOverride(
                kind: try c.decode(String.self, forKey: .kind), trackID: try c.decode(String.self, forKey: .trackID),
                requesterName: try c.decode(String.self, forKey: .requesterName))
        case "thumbs":
            self = .thumbs(
                entryID: try c.decode(String.self, forKey: .entryID), up: try c.decode(Int.self, forKey: .up),
                down: try c.decode(Int.self, forKey: .down))
        case "standing": self = .standing(try c.decode(StandingView.self, forKey: .standing))
        case "sound": self = .sound(try c.decode(SoundView.self, forKey: .sound))
        case "chat":
            self = .chat(
                message: try c.decode(ChatMessageView.self, forKey: .message),
                ref: try c.decodeIfPresent(String.self, forKey: .ref))
        case "chatRoom": self = .chatRoom(try c.decode(ChatRoomView.self, forKey: .room))
        case "chatDeleted":
            self = .chatDeleted(
                messageIDs: try c.decode([String].self, forKey: .messageIDs),
                personID: try c.decodeIfPresent(String.self, forKey: .person),
                all: try c.decode(Bool.self, forKey: .all))
        case "reactions": self = .reactions(try c.decode(ReactionsView.self, forKey: .reactions))
        case "clipWaiting": self = .clipWaiting(try c.decode(ClipView.self, forKey: .clip))
        case "room": self = .room(try c.decode(RoomSignal.self, forKey: .signal))
        default:
            throw DecodingError.dataCorrupted(
                .init(codingPath: [TypeKey.type], debugDescription: "Unknown server message type '\(type)'."))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var typeContainer = encoder.container(keyedBy: TypeKey.self)
        try typeContainer.encode(type, forKey: .type)
        var c = encoder.container(keyedBy: Keys.self)
        switch self {
        case .snapshot(let snapshot): try c.encode(snapshot, forKey: .snapshot)
        case .resumed(let revision, let serverTime, let listeners):
            try c.encode(revision, forKey: .revision)
            try c.encode(serverTime, forKey: .serverTime)
            try c.encode(listeners, forKey: .listeners)
        case .update(let window): try c.encode(window, forKey: .timeline)
        case .listeners(let count): try c.encode(count, forKey: .count)
        case .ack(let ack): try c.encode(ack, forKey: .ack)
        case .error(let id, let code, let message):
            try c.encodeIfPresent(id, forKey: .id)
            try c.encode(code, forKey: .code)
            try c.encode(message, forKey: .message)
        case .pong(let nonce, let serverTime, let serverReceived, let serverSent):
            try c.encodeIfPresent(nonce, forKey: .nonce)
            try c.encode(serverTime, forKey: .serverTime)
            try c.encode(serverReceived, forKey: .serverReceived)
            try c.encode(serverSent, forKey: .serverSent)
        case .role(let role, let epoch):
            try c.encode(role, forKey: .role)
            try c.encode(epoch, forKey: .epoch)
        case .dj(let epoch, let present, let name):
            try c.encode(epoch, forKey: .epoch)
            try c.encode(present, forKey: .present)
            try c.encodeIfPresent(name, forKey: .name)
        case .access(let role): try c.encode(role, forKey: .role)
        case .removed(let person, let reason):
            try c.encode(person, forKey: .person)
            try c.encode(reason, forKey: .reason)
        case .ended: break
        case .party(let party): try c.encode(party, forKey: .party)
        case .votes(let votes): try c.encode(votes, forKey: .votes)
        case .hostOverride(let kind, let trackID, let requesterName):
            try c.encode(kind, forKey: .kind)
            try c.encode(trackID, forKey: .trackID)
            try c.encode(requesterName, forKey: .requesterName)
        case .thumbs(let entryID, let up, let down):
            try c.encode(entryID, forKey: .entryID)
            try c.encode(up, forKey: .up)
            try c.encode(down, forKey: .down)
        case .standing(let standing): try c.encode(standing, forKey: .standing)
        case .sound(let sound): try c.encode(sound, forKey: .sound)
        case .chat(let message, let ref):
            try c.encode(message, forKey: .message)
            try c.encodeIfPresent(ref, forKey: .ref)
        case .chatRoom(let room): try c.encode(room, forKey: .room)
        case .chatDeleted(let ids, let personID, let all):
            try c.encode(ids, forKey: .messageIDs)
            try c.encodeIfPresent(personID, forKey: .person)
            try c.encode(all, forKey: .all)
        case .reactions(let reactions): try c.encode(reactions, forKey: .reactions)
        case .clipWaiting(let clip): try c.encode(clip, forKey: .clip)
        case .room(let signal): try c.encode(signal, forKey: .signal)
        }
    }
}

/// A server message with its sequence number. Every message on a connection
/// carries `seq`, 1, 2, 3, … with no gaps; a client that sees a gap asks for a
/// `resync`. (Encoded flat: `{"seq": 7, "type": "update", …}`.)
public struct SequencedServerMessage: Sendable, Equatable, Decodable {
    public var seq: UInt64
    public var message: ServerMessage

    private enum Keys: String, CodingKey {
        case seq
    }

    public init(seq: UInt64, message: ServerMessage) {
        self.seq = seq
        self.message = message
    }

    public init(from decoder: any Decoder) throws {
        seq = try decoder.container(keyedBy: Keys.self).decode(UInt64.self, forKey: .seq)
        message = try ServerMessage(from: decoder)
    }
}
