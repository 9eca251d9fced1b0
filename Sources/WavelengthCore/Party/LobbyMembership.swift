/// Which lobby each person is in (seed 004: a person is in one lobby at a
/// time; joining another leaves the first). Pure bookkeeping for the
/// server's directory of stations: `entered` says which lobby the person
/// must leave.
///
/// Bounded: past `capacity` people the longest-known are forgotten (a
/// forgotten person could then be in two lobbies until they next join one).
/// An entry for a lobby the person already left is harmless: leaving it
/// again finds no connection of theirs and does nothing.
public struct LobbyMembership: Sendable, Equatable {
    private var lobbyOf: [String: StationID] = [:]
    private var order: [String] = []
    public let capacity: Int

    public init(capacity: Int = 100_000) {
        self.capacity = max(1, capacity)
    }

    public var count: Int { lobbyOf.count }

    public func lobby(of person: String) -> StationID? {
        lobbyOf[person]
    }

    /// `person` joined the lobby `station`; returns the lobby they were in
    /// before, which they leave (nil when none, or the same one).
    public mutating func entered(_ person: String, station: StationID) -> StationID? {
        let previous = lobbyOf.updateValue(station, forKey: person)
        if previous == nil {
            order.append(person)
            if order.count > capacity {
                // Forget the oldest tenth at once, so this stays amortised O(1).
                let drop = max(1, capacity / 10)
                for forgotten in order.prefix(drop) { lobbyOf[forgotten] = nil }
                order.removeFirst(drop)
            }
        }
        return previous == station ? nil : previous
    }
}
