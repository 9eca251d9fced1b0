/// What the owner and co-DJs can do to a station's chat.
public enum ChatModeration: Sendable, Equatable {
    /// Delete one message.
    case delete(messageID: String)
    /// Delete everything one person wrote.
    case deleteAllBy(personID: String)
    /// Delete every message.
    case clear
    /// Mute someone for 15, 30 or 60 minutes.
    case mute(personID: String, minutes: Int)
    case unmute(personID: String)
    /// One message per `seconds` for everyone but moderators; 0 turns it off.
    case slowMode(seconds: Int)
}

/// A change to a station's chat, saved in one transaction before anyone
/// hears of it.
public enum ChatSave: Sendable, Equatable {
    /// A new message; messages sent before `purgeBefore` go (the
    /// retention), and all but the station's newest `keep`.
    case post(ChatMessage, purgeBefore: EpochMillis, keep: Int = ChatRoom.keptPerStation)
    case delete(messageIDs: [String])
    case deleteAllBy(personID: String)
    case clear
    case mute(personID: String, until: EpochMillis)
    case unmute(personID: String)
    case slowMode(seconds: Int)
}
