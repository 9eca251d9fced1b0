/// A note from one node of a cluster to the others that something they may
/// hold in memory changed in the shared store. It names what changed, never
/// the change itself: the store has that, and a node reads it from there.
public struct ClusterSignal: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        /// The station's record changed (its code was taken back for
        /// another station, say): a node that has it loaded reads it again.
        case stationChanged = "station"
        /// `personID` joined the lobby `stationID`: they leave any other
        /// lobby, on whichever node it runs (seed 004: one lobby at a time).
        case enteredLobby = "lobby"
    }

    /// Its place in the cluster's one order (0 until it is published).
    public var sequence: Int64
    public var kind: Kind
    public var stationID: StationID
    public var personID: String?
    /// The node that published it (a node skips its own).
    public var node: String

    public init(sequence: Int64 = 0, kind: Kind, stationID: StationID, personID: String? = nil, node: String) {
        self.sequence = sequence
        self.kind = kind
        self.stationID = stationID
        self.personID = personID
        self.node = node
    }

    /// Longer ids than these are never published (they come from storage,
    /// where ids are short; the limit keeps a row small whatever happens).
    public static let maxIDLength = 64
}
