/// Where a node is in the cluster's signals, and what a batch of them asks
/// it to do. A pure value: the follower reads batches from the store (on a
/// NOTIFY wake-up, or at the poll) and performs what `read` answers.
///
/// Coalescing: a batch that changes one station ten times reloads it once,
/// and a person who hopped through three lobbies leaves all but the last.
public struct SignalCursor: Sendable, Equatable {
    /// The last signal read: the next read starts after it.
    public private(set) var position: Int64
    public let node: String

    public enum Action: Sendable, Equatable {
        case reloadStation(StationID)
        /// `personID` is in `stationID` now, and in no other lobby.
        case enteredLobby(personID: String, stationID: StationID)
    }

    public init(node: String, position: Int64) {
        self.node = node
        self.position = position
    }

    /// Moves past `batch` (oldest first, as the store reads them) and
    /// answers what to do, each station and person once, in the order of
    /// their last signal. Signals at or before the position (read before)
    /// and this node's own are skipped.
    public mutating func read(_ batch: [ClusterSignal]) -> [Action] {
        var latest: [Action: Int64] = [:]
        var lobbyOf: [String: (station: StationID, at: Int64)] = [:]
        for signal in batch where signal.sequence > position {
            position = signal.sequence
            guard signal.node != node else { continue }
            switch signal.kind {
            case .stationChanged:
                latest[.reloadStation(signal.stationID)] = signal.sequence
            case .enteredLobby:
                guard let person = signal.personID else { continue }
                lobbyOf[person] = (signal.stationID, signal.sequence)
            }
        }
        for (person, entry) in lobbyOf {
            latest[.enteredLobby(personID: person, stationID: entry.station)] = entry.at
        }
        return latest.sorted { $0.value < $1.value }.map(\.key)
    }
}

extension SignalCursor.Action: Hashable {}
