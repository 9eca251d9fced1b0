import Testing
import WavelengthCore

/// How a node reads the cluster's signals: in order, once each, its own
/// skipped, and each station and person acted on once per batch.
@Suite("Signal cursor")
struct SignalCursorTests {
    static func signal(
        _ sequence: Int64, _ kind: ClusterSignal.Kind, _ station: StationID, person: String? = nil, from node: String = "b"
    ) -> ClusterSignal {
        ClusterSignal(sequence: sequence, kind: kind, stationID: station, personID: person, node: node)
    }

    @Test func aBatchIsCoalescedAndTheNodesOwnAreSkipped() {
        var cursor = SignalCursor(node: "a", position: 10)
        let actions = cursor.read([
            Self.signal(11, .stationChanged, "s1"),
            Self.signal(12, .enteredLobby, "lobby1", person: "ann"),
            Self.signal(13, .stationChanged, "s2", from: "a"),
            Self.signal(14, .enteredLobby, "lobby2", person: "ann"),
            Self.signal(15, .stationChanged, "s1"),
            Self.signal(16, .enteredLobby, "lobby1", person: "bo"),
        ])
        #expect(
            actions == [
                .enteredLobby(personID: "ann", stationID: "lobby2"), .reloadStation("s1"),
                .enteredLobby(personID: "bo", stationID: "lobby1"),
            ])
        #expect(cursor.position == 16)
    }

    @Test func whatWasReadBeforeIsNotReadAgain() {
        var cursor = SignalCursor(node: "a", position: 0)
        #expect(cursor.read([Self.signal(1, .stationChanged, "s1")]) == [.reloadStation("s1")])
        // A poll and a wake-up that overlap read the same rows twice.
        #expect(cursor.read([Self.signal(1, .stationChanged, "s1"), Self.signal(2, .stationChanged, "s2")]) == [.reloadStation("s2")])
        #expect(cursor.read([]) == [])
        #expect(cursor.position == 2)
    }

    @Test func aLobbySignalWithoutAPersonIsIgnored() {
        var cursor = SignalCursor(node: "a", position: 0)
        #expect(cursor.read([Self.signal(1, .enteredLobby, "lobby1")]) == [])
        #expect(cursor.position == 1)
    }
}
