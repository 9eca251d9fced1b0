import WavelengthCore

/// One chat message as clients see it. `text` is plain text: clients show it
/// as text, never as markup, and never turn links into anything clickable.
public struct ChatMessageView: Sendable, Codable, Equatable {
    public var id: String
    public var person: PersonRef
    /// nil for a guest.
    public var handle: String?
    public var text: String
    public var sentAt: EpochMillis
    /// The handles named with `@`, lower case: a client highlights the
    /// message when its own is among them.
    public var mentions: [String]
    /// The handle to @mention the author by: theirs, or a guest's room
    /// handle (`ChatText.guestHandle`).
    public var mention: String

    public init(_ message: ChatMessage) {
        self.id = message.id
        self.person = PersonRef(id: message.personID, name: message.name)
        self.handle = message.handle
        self.mention = message.handle ?? ChatText.guestHandle(name: message.name, personID: message.personID)
        self.text = message.text
        self.sentAt = message.sentAt
        self.mentions = message.mentions
    }
}

/// Reactions to the song that plays: the latest burst and the song's totals.
public struct ReactionsView: Sendable, Codable, Equatable {
    public var entryID: EntryID
    /// What came in since the last burst (empty in `chatRoom`).
    public var burst: [String: Int]
    public var totals: [String: Int]

    public init(entryID: EntryID, burst: [String: Int], totals: [String: Int]) {
        self.entryID = entryID
        self.burst = burst
        self.totals = totals
    }

    public init(_ burst: Reactions.Burst) {
        self.init(entryID: burst.entryID, burst: burst.burst, totals: burst.totals)
    }
}

/// Someone muted in the chat, for moderators.
public struct MuteView: Sendable, Codable, Equatable {
    public var person: PersonRef
    public var until: EpochMillis

    public init(person: PersonRef, until: EpochMillis) {
        self.person = person
        self.until = until
    }
}

/// The chat as one connection may see it: sent on connect (with the newest
/// messages) and whenever its rules change.
public struct ChatRoomView: Sendable, Codable, Equatable {
    /// The host's switch; off, nothing is sent or kept.
    public var enabled: Bool
    public var guestsMayPost: Bool
    /// 0 when slow mode is off.
    public var slowModeSeconds: Int
    /// The newest messages, oldest first (at most 50).
    public var messages: [ChatMessageView]
    /// While you are muted: when it ends.
    public var mutedUntil: EpochMillis?
    /// Everyone muted now; for the owner and co-DJs only.
    public var muted: [MuteView]?
    /// The reactions to the song playing so far.
    public var reactions: ReactionsView?
    /// The reactions offered.
    public var palette: [String]
    /// The longest message, in characters.
    public var maxLength: Int
    /// The named people here now, with the handle to @mention them by (a
    /// guest's room handle included), for suggestions.
    public var people: [MentionableView]?

    public init(
        enabled: Bool, guestsMayPost: Bool, slowModeSeconds: Int, messages: [ChatMessageView], mutedUntil: EpochMillis?,
        muted: [MuteView]?, reactions: ReactionsView?, palette: [String] = Reactions.palette,
        maxLength: Int = ChatText.maxCharacters, people: [MentionableView]? = nil
    ) {
        self.people = people
        self.enabled = enabled
        self.guestsMayPost = guestsMayPost
        self.slowModeSeconds = slowModeSeconds
        self.messages = messages
        self.mutedUntil = mutedUntil
        self.muted = muted
        self.reactions = reactions
        self.palette = palette
        self.maxLength = maxLength
    }
}

extension ChatModeration: Codable {
    private enum Keys: String, CodingKey {
        case action, messageID, personID, minutes, seconds
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        let action = try c.decode(String.self, forKey: .action)
        switch action {
        case "delete": self = .delete(messageID: try c.decode(String.self, forKey: .messageID))
        case "deleteAllBy": self = .deleteAllBy(personID: try c.decode(String.self, forKey: .personID))
        case "clear": self = .clear
        case "mute":
            self = .mute(personID: try c.decode(String.self, forKey: .personID), minutes: try c.decode(Int.self, forKey: .minutes))
        case "unmute": self = .unmute(personID: try c.decode(String.self, forKey: .personID))
        case "slowMode": self = .slowMode(seconds: try c.decode(Int.self, forKey: .seconds))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .action, in: c,
                debugDescription:
                    "Unknown action '\(action.prefix(40))'; expected delete, deleteAllBy, clear, mute, unmute or slowMode.")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        switch self {
        case .delete(let messageID):
            try c.encode("delete", forKey: .action)
            try c.encode(messageID, forKey: .messageID)
        case .deleteAllBy(let personID):
            try c.encode("deleteAllBy", forKey: .action)
            try c.encode(personID, forKey: .personID)
        case .clear:
            try c.encode("clear", forKey: .action)
        case .mute(let personID, let minutes):
            try c.encode("mute", forKey: .action)
            try c.encode(personID, forKey: .personID)
            try c.encode(minutes, forKey: .minutes)
        case .unmute(let personID):
            try c.encode("unmute", forKey: .action)
            try c.encode(personID, forKey: .personID)
        case .slowMode(let seconds):
            try c.encode("slowMode", forKey: .action)
            try c.encode(seconds, forKey: .seconds)
        }
    }
}

/// Someone in the room who can be @mentioned.
public struct MentionableView: Sendable, Codable, Equatable {
    public var id: String
    public var name: String
    public var handle: String

    public init(id: String, name: String, handle: String) {
        self.id = id
        self.name = name
        self.handle = handle
    }
}
