import WavelengthCore
import WavelengthWire

/// What a client knows about a station: the latest window, the listener
/// count, and where it is in the server's message sequence. Pure: feed it
/// messages, ask it what to play at a given server time.
public struct StationModel: Sendable, Equatable {
    public private(set) var station: StationView?
    public private(set) var window: TimelineWindow?
    public private(set) var listeners = 0
    public private(set) var lastSeq: UInt64 = 0
    /// The DJ epoch as last heard, and whether this connection holds the role.
    public private(set) var djEpoch: Int64?
    public private(set) var isDJ = false
    /// Whether this connection has heard its role yet. The server sends it
    /// right after the snapshot on every connection; until then the epoch
    /// is the last connection's, and a command sent with it would be stale.
    public private(set) var roleKnown = false
    /// What this client's person may do here (owner and co-DJs control the music).
    public private(set) var access: StationRole = .none
    /// The party as last heard (nil until the station sends one).
    public private(set) var party: PartyView?
    /// This person's own votes, by request.
    public private(set) var myVotes: [RequestID: Vote] = [:]
    /// Your standing in the lobby (nil until a lobby sends it).
    public private(set) var standing: StandingView?
    /// How loud the station plays (the standard until the server says).
    public private(set) var sound = SoundView.standard
    /// The chat's rules as this client may see them.
    public private(set) var chatRoom: ChatRoomView?
    /// The chat's messages this client has seen, oldest first (the newest
    /// `chatLimit`).
    public private(set) var chat: [ChatMessageView] = []
    public static let chatLimit = 200
    /// The reactions to the song playing.
    public private(set) var reactions: ReactionsView?

    public init() {}

    public var revision: Int64? { window?.revision }

    /// What the client must do after a message.
    public enum Reaction: Sendable, Equatable {
        case none
        /// A message went missing: ask for a snapshot.
        case resync
    }

    /// A new connection numbers its messages from 1 again.
    public mutating func connectionOpened() {
        lastSeq = 0
        roleKnown = false
    }

    public mutating func receive(_ sequenced: SequencedServerMessage) -> Reaction {
        // Duplicates or reordering never move the model backwards.
        guard sequenced.seq > lastSeq else { return .none }
        let gap = sequenced.seq != lastSeq + 1
        lastSeq = sequenced.seq
        switch sequenced.message {
        case .snapshot(let snapshot):
            station = snapshot.station
            if let sound = snapshot.station.sound { self.sound = sound }
            listeners = snapshot.listeners
            accept(snapshot.timeline)
            return .none
        case .update(let window):
            accept(window)
        case .listeners(let count):
            listeners = count
        case .resumed(_, _, let count):
            listeners = count
        case .role(let role, let epoch):
            isDJ = role == "dj"
            djEpoch = epoch
            roleKnown = true
        case .dj(let epoch, _, _):
            djEpoch = epoch
        case .access(let role):
            access = role
        case .party(let view):
            party = view
            if let mine = view.myVotes { myVotes = mine }
        case .votes(let mine):
            myVotes = mine
        case .standing(let mine):
            standing = mine
        case .sound(let sound):
            self.sound = sound
        case .chatRoom(let room):
            chatRoom = room
            // On connect the room brings the newest messages: they replace
            // what the client held (some may have been deleted meanwhile).
            if room.enabled { chat = room.messages } else { chat = [] }
            reactions = room.reactions
        case .chat(let message, _):
            if !chat.contains(where: { $0.id == message.id }) {
                chat.append(message)
                if chat.count > Self.chatLimit { chat.removeFirst(chat.count - Self.chatLimit) }
            }
        case .chatDeleted(let ids, let personID, let all):
            if all {
                chat = []
            } else {
                chat.removeAll { ids.contains($0.id) || $0.person.id == personID }
            }
        case .reactions(let burst):
            reactions = burst
        case .ack, .error, .pong, .removed, .ended, .hostOverride, .thumbs, .clipWaiting, .room:
            break
        }
        return gap ? .resync : .none
    }

    /// Message `seq` could not be read (it named a track this client lacks,
    /// and the client asks for a snapshot): it is not a gap.
    public mutating func skipped(seq: UInt64) {
        lastSeq = max(lastSeq, seq)
    }

    /// Only a newer revision replaces the window.
    private mutating func accept(_ newer: TimelineWindow) {
        if let window, newer.revision < window.revision { return }
        window = newer
    }

    /// Every scheduled entry the client knows of, in order.
    public var schedule: [EntryView] {
        guard let window else { return [] }
        return [window.current].compactMap { $0 } + window.upNext
    }

    /// What should be playing at `serverTime`, how far into its file, and
    /// what comes next. Works from the last window it got, so playback goes
    /// on while the connection is down.
    public func plan(at serverTime: Double, prefetch: Double = 10_000) -> PlaybackPlan? {
        if let pausedAt = window?.pausedAt, let frozen = window?.current {
            // Paused: nothing sounds; the frozen entry says where it will go on.
            return PlaybackPlan(
                current: frozen, fileOffsetMs: Double(pausedAt - frozen.start + frozen.offsetMs),
                next: window?.upNext.first, fetchNextAt: nil, paused: true)
        }
        let entries = schedule
        guard let index = entries.firstIndex(where: { Double($0.start) <= serverTime && serverTime < Double($0.expiration) })
        else {
            let upcoming = entries.first { Double($0.start) > serverTime }
            return upcoming.map { PlaybackPlan(current: nil, fileOffsetMs: 0, next: $0, fetchNextAt: Double($0.start) - prefetch) }
        }
        let entry = entries[index]
        let next = index + 1 < entries.count ? entries[index + 1] : nil
        return PlaybackPlan(
            current: entry, fileOffsetMs: serverTime - Double(entry.start) + Double(entry.offsetMs), next: next,
            fetchNextAt: next.map { Double($0.start) - prefetch })
    }
}

/// The answer to "what should play now, at which offset, and what is next,
/// with when to start fetching it".
public struct PlaybackPlan: Sendable, Equatable {
    public var current: EntryView?
    /// Where in the current entry's audio file playback should be, in ms.
    public var fileOffsetMs: Double
    public var next: EntryView?
    /// Server time at which to start fetching the next entry.
    public var fetchNextAt: Double?
    /// The DJ paused the station: hold `current` at `fileOffsetMs`, silent.
    public var paused: Bool = false
}
