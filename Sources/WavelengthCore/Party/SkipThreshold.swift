import Foundation

/// How many of the people listening it takes to skip the song that plays.
public enum SkipThreshold: Sendable, Equatable {
    /// The smaller of 55 % of the listeners and 2 + 3·log2(listeners),
    /// rounded up: 2 of 3, 6 of 10, 22 of 100, 27 of 300.
    ///
    /// Why both: a bare share (JMusicBot's ceil(0.55 × n)) is right for a
    /// small room but never fires in a big one (jqbx saw that at 50 % and
    /// moved to a log scale), and a log alone would ask more votes than a
    /// small room has (8 of 4). The curves cross near 30 listeners.
    case automatic
    /// A share of the listeners, 0 < share ≤ 1, rounded up.
    case share(Double)
    /// A fixed number of listeners, never more than are listening.
    case count(Int)

    /// The votes needed with `listening` people listening (at least 1).
    public func votesNeeded(listening: Int) -> Int {
        let listeners = max(1, listening)
        let needed: Int
        switch self {
        case .automatic:
            let share = 0.55 * Double(listeners)
            let logarithmic = 2 + 3 * log2(Double(listeners))
            needed = Int(min(share, logarithmic).rounded(.up))
        case .share(let share):
            needed = Int((share * Double(listeners)).rounded(.up))
        case .count(let count):
            needed = count
        }
        return min(listeners, max(1, needed))
    }

    public func validated() throws(RequestError) -> SkipThreshold {
        switch self {
        case .automatic:
            break
        case .share(let share):
            guard share > 0, share <= 1 else { throw .invalidSettings("The skip share must be above 0 % and at most 100 %.") }
        case .count(let count):
            guard (1...1_000).contains(count) else { throw .invalidSettings("The skip count must be 1–1000.") }
        }
        return self
    }
}

extension SkipThreshold: Codable {
    private enum CodingKeys: String, CodingKey { case kind, value }

    /// `{"kind": "automatic"}`, `{"kind": "share", "value": 0.5}` or
    /// `{"kind": "count", "value": 3}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .kind) {
        case "automatic":
            // A value it doesn't take must still be a number, as for the
            // other kinds: `{"value": {}}` is a mistake, not a default.
            _ = try container.decodeIfPresent(Double.self, forKey: .value)
            self = .automatic
        case "share": self = .share(try container.decode(Double.self, forKey: .value))
        case "count": self = .count(try container.decode(Int.self, forKey: .value))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: container, debugDescription: "The skip kind must be automatic, share or count.")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .automatic:
            try container.encode("automatic", forKey: .kind)
        case .share(let share):
            try container.encode("share", forKey: .kind)
            try container.encode(share, forKey: .value)
        case .count(let count):
            try container.encode("count", forKey: .kind)
            try container.encode(count, forKey: .value)
        }
    }
}

/// Votes to skip the entry that is playing. A vote belongs to the entry it
/// was cast on, so the tally starts again with each song, and only the
/// people listening right now count towards it.
public struct SkipTally: Sendable, Equatable {
    public private(set) var entryID: EntryID?
    public private(set) var voters: Set<String> = []

    public init() {}

    /// Counts `person`'s vote to skip `entry` (a second vote changes nothing).
    public mutating func vote(by person: String, on entry: EntryID) {
        if entry != entryID {
            entryID = entry
            voters = []
        }
        voters.insert(person)
    }

    /// Takes a vote back.
    public mutating func withdraw(by person: String) {
        voters.remove(person)
    }

    /// The votes that count for `entry`: those of people listening now.
    public func votes(on entry: EntryID, listening: Set<String>) -> Int {
        entry == entryID ? voters.intersection(listening).count : 0
    }

    /// Whether enough of the people listening want `entry` skipped.
    public func reached(on entry: EntryID, listening: Set<String>, threshold: SkipThreshold) -> Bool {
        votes(on: entry, listening: listening) >= threshold.votesNeeded(listening: listening.count)
    }
}
