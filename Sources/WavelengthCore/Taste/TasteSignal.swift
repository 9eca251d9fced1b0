/// A reaction the robot DJ learns from, and how much it says.
///
/// Strengths are relative to a thumb (1): a skip is a strong "no" (seed
/// 004 and issue 11 both say so), a song heard to the end with no reaction
/// is a faint "yes", and a vote on someone else's request says less than
/// asking for the song yourself.
public enum TasteSignal: Sendable, Equatable {
    case thumbUp
    case thumbDown
    case skipped
    case completed
    case requested
    case votedUp
    case votedDown
    /// A burst of the room's warm reactions (🔥 ❤️ 🙌 💃) to the song.
    case reacted

    public var liked: Bool {
        switch self {
        case .thumbUp, .completed, .requested, .votedUp, .reacted: true
        case .thumbDown, .skipped, .votedDown: false
        }
    }

    public var strength: Double {
        switch self {
        case .thumbUp, .thumbDown, .requested: 1
        case .skipped: 2
        case .completed: 0.25
        case .votedUp, .votedDown, .reacted: 0.5
        }
    }
}
