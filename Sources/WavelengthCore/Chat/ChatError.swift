/// Why a chat message, a reaction or a moderator's action was refused.
public enum ChatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The host turned the chat off: nothing is sent or kept.
    case off
    /// Only people with a name may post: anonymous listeners, and guests
    /// unless the host lets guests chat.
    case notAllowed(guestsOff: Bool)
    case empty
    case tooLong(limit: Int)
    /// Control characters (line breaks included) or direction overrides.
    case controlCharacters
    case muted(until: EpochMillis)
    /// Slow mode: the next message may come at `retryAt`.
    case slowMode(seconds: Int, retryAt: EpochMillis)
    /// The per-person rate limit: `limit` messages in `windowSeconds`.
    case tooFast(limit: Int, windowSeconds: Int, retryAt: EpochMillis)
    /// A mute is 15, 30 or 60 minutes.
    case invalidMute
    case invalidSlowMode
    /// The owner and co-DJs can't be muted, and nobody mutes themselves.
    case cannotMute
    /// Too many people muted at once on one station.
    case tooManyMutes(limit: Int)
    /// Not one of the reactions the station offers.
    case unknownReaction
    /// A reaction to a song that isn't playing any more.
    case notCurrent
    /// A mute for someone the server doesn't know.
    case unknownPerson

    public var description: String {
        switch self {
        case .off: "The chat is off on this station."
        case .notAllowed(let guestsOff):
            guestsOff
                ? "The host hasn't let guests chat on this station."
                : "Sign in or join with a name to chat."
        case .empty: "The message is empty."
        case .tooLong(let limit): "A message is at most \(limit) characters."
        case .controlCharacters: "A message is one line of text, with no control characters."
        case .muted: "A moderator muted you in this chat."
        case .slowMode(let seconds, _): "Slow mode is on: one message every \(seconds) s."
        case .tooFast(let limit, let window, _): "Slow down: at most \(limit) messages in \(window) s."
        case .invalidMute: "A mute lasts 15, 30 or 60 minutes."
        case .invalidSlowMode: "Slow mode is 0 (off) to \(ChatRoom.slowModeRange.upperBound) seconds."
        case .cannotMute: "The owner and co-DJs can't be muted, and you can't mute yourself."
        case .tooManyMutes(let limit): "At most \(limit) people can be muted at once."
        case .unknownReaction: "Reactions are \(Reactions.palette.joined(separator: " "))."
        case .notCurrent: "That song isn't playing any more."
        case .unknownPerson: "There is nobody with that id to mute."
        }
    }

    /// When the refused message may be sent again, when that is known.
    public var retryAt: EpochMillis? {
        switch self {
        case .muted(let until): until
        case .slowMode(_, let retryAt), .tooFast(_, _, let retryAt): retryAt
        default: nil
        }
    }
}
