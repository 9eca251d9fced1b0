/// The station's level, which the room votes up and down (seed 004's volume
/// control) and the host may set outright. It is a gain every player applies
/// on top of each track's loudness gain, from the same instant (`since`), so
/// the room hears the change together.
///
/// A direction wins when the votes for it, among the people listening,
/// reach the skip formula's count (`SkipThreshold.automatic`: 2 of 3, 6 of
/// 10, 22 of 100) and outnumber the other direction. The level then moves one
/// step and every vote starts afresh, so one crowd can't ratchet it to the end
/// with a single round of votes.
public struct StationVolume: Sendable, Equatable, Codable {
    public enum Direction: String, Sendable, Codable {
        case up, down
    }

    /// The level in dB relative to the loudness target (0: the target).
    public private(set) var levelDb: Double
    /// The server time the level takes effect.
    public private(set) var since: EpochMillis
    /// Who moved it last, in words: "The room voted it louder".
    public private(set) var reason: String?
    public private(set) var votes: [String: Direction]

    public static let step: Double = 3
    public static let range: ClosedRange<Double> = -18...6
    /// How far ahead of the change its instant is: every player hears of it
    /// before it happens.
    public static let leadMillis: Int64 = 500

    public init(levelDb: Double = 0, since: EpochMillis = 0, reason: String? = nil, votes: [String: Direction] = [:]) {
        self.levelDb = min(Self.range.upperBound, max(Self.range.lowerBound, levelDb))
        self.since = since
        self.reason = reason
        self.votes = votes
    }

    /// The votes that count: those of people listening now.
    public func count(_ direction: Direction, listening: Set<String>) -> Int {
        votes.lazy.filter { listening.contains($0.key) && $0.value == direction }.count
    }

    /// `person` votes (nil takes the vote back). Returns true when the level
    /// moved.
    public mutating func vote(
        _ direction: Direction?, by person: String, listening: Set<String>, at now: EpochMillis
    ) -> Bool {
        votes[person] = direction
        // Votes of people who left no longer count, nor take room.
        votes = votes.filter { listening.contains($0.key) }
        let needed = SkipThreshold.automatic.votesNeeded(listening: listening.count)
        let up = count(.up, listening: listening)
        let down = count(.down, listening: listening)
        let winner: Direction? =
            if up >= needed && up > down { .up } else if down >= needed && down > up { .down } else { nil }
        guard let winner else { return false }
        votes = [:]
        let target = levelDb + (winner == .up ? Self.step : -Self.step)
        return set(target, at: now, reason: winner == .up ? "The room voted it louder" : "The room voted it quieter")
    }

    /// The host sets the level; the votes start afresh. Returns true when
    /// it changed.
    @discardableResult
    public mutating func set(_ level: Double, at now: EpochMillis, reason: String) -> Bool {
        votes = [:]
        let level = min(Self.range.upperBound, max(Self.range.lowerBound, level))
        guard level != levelDb else { return false }
        levelDb = level
        since = now + Self.leadMillis
        self.reason = reason
        return true
    }

    /// The step up or down still within range.
    public func canMove(_ direction: Direction) -> Bool {
        direction == .up ? levelDb < Self.range.upperBound : levelDb > Self.range.lowerBound
    }
}
