/// What a person is on one station. Ranked, because removing someone
/// (kick, ban) is only allowed downwards: you can't remove your equal.
public enum StationRole: String, Sendable, Codable, CaseIterable, Comparable {
    /// No standing: may not listen (banned, or not admitted) and may do nothing.
    case none
    case listener
    case codj
    case owner

    /// Declaration order is the rank; spelled out so reordering the cases
    /// can't silently change who may remove whom.
    private var rank: Int {
        switch self {
        case .none: 0
        case .listener: 1
        case .codj: 2
        case .owner: 3
        }
    }

    public static func < (lhs: StationRole, rhs: StationRole) -> Bool {
        lhs.rank < rhs.rank
    }
}
