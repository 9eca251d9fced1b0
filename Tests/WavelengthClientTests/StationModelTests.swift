import Testing
import WavelengthCore
import WavelengthWire
@testable import WavelengthClient

@Suite("Station model")
struct StationModelTests {
    static func track(_ id: String) -> TrackSummary {
        TrackSummary(
            id: id, tags: TrackTags(title: id, artist: "a", album: "b", albumArtist: "a", durationMs: 1000), format: "mp3",
            audioURL: "/a/\(id)", artworkURL: nil)
    }

    static func window(revision: Int64, starts: [Int64]) -> TimelineWindow {
        let entries = starts.enumerated().map { i, start in
            EntryView(
                entry: TimelineEntry(id: "e\(i)", trackID: "t\(i)", start: start, duration: 1000, source: .robot),
                track: track("t\(i)"))
        }
        return TimelineWindow(
            stationID: "s", revision: revision, serverTime: starts[0], current: entries.first, positionMs: 0,
            upNext: Array(entries.dropFirst()), history: [])
    }

    @Test func plansFromAbsoluteTimes() {
        var model = StationModel()
        _ = model.receive(SequencedServerMessage(seq: 1, message: .update(Self.window(revision: 3, starts: [0, 1000, 2000]))))
        let plan = model.plan(at: 1250, prefetch: 500)!
        #expect(plan.current?.id == "e1")
        #expect(plan.fileOffsetMs == 250)
        #expect(plan.next?.id == "e2")
        #expect(plan.fetchNextAt == 1500)
        #expect(model.plan(at: 5000, prefetch: 0) == nil)
        let before = model.plan(at: -10, prefetch: 0)!
        #expect(before.current == nil)
        #expect(before.next?.id == "e0")
    }

    @Test func aGapInTheSequenceAsksForAResync() {
        var model = StationModel()
        #expect(model.receive(SequencedServerMessage(seq: 1, message: .listeners(count: 1))) == .none)
        #expect(model.receive(SequencedServerMessage(seq: 3, message: .listeners(count: 2))) == .resync)
        // Old or repeated messages are ignored.
        #expect(model.receive(SequencedServerMessage(seq: 2, message: .listeners(count: 9))) == .none)
        #expect(model.listeners == 2)
        model.connectionOpened()
        #expect(model.receive(SequencedServerMessage(seq: 1, message: .listeners(count: 4))) == .none)
        #expect(model.listeners == 4)
    }

    @Test func anOlderRevisionNeverReplacesANewerOne() {
        var model = StationModel()
        _ = model.receive(SequencedServerMessage(seq: 1, message: .update(Self.window(revision: 5, starts: [0]))))
        _ = model.receive(SequencedServerMessage(seq: 2, message: .update(Self.window(revision: 4, starts: [100]))))
        #expect(model.revision == 5)
        #expect(model.schedule.first?.start == 0)
    }

    @Test func backoffGrowsAndIsCapped() {
        var rng = SeededRandom(seed: 1)
        let backoff = Backoff(initial: 100, maximum: 1000, jitter: 0)
        #expect([1, 2, 3, 4, 5, 10].map { backoff.delay(attempt: $0, using: &rng) } == [100, 200, 400, 800, 1000, 1000])
        let jittery = Backoff(initial: 100, maximum: 1000, jitter: 0.2)
        for _ in 0..<100 { #expect((80...120).contains(jittery.delay(attempt: 1, using: &rng))) }
    }

    @Test func liveURLCarriesVersionAndRevisionButNeverTheToken() async {
        let configuration = ClientConfiguration(
            serverURL: "https://radio.example/", stationID: "s1", accessToken: { "secret-token" }, personID: "u1")
        #expect(configuration.liveURL(since: 7, deviceKey: "device-key-1")
            == "wss://radio.example/api/stations/s1/live?v=2&listener=device-key-1&since=7")
        // The token goes in the upgrade's Authorization header, asked for at each connection.
        #expect(await configuration.accessToken() == "secret-token")
        let anonymous = ClientConfiguration(serverURL: "http://h:1", stationID: "s")
        #expect(anonymous.liveURL(since: nil, deviceKey: "device-key-2") == "ws://h:1/api/stations/s/live?v=2&listener=device-key-2")
        // Each client its own device key, unless the configuration names one.
        let first = StationClient(configuration: anonymous)
        let second = StationClient(configuration: anonymous)
        #expect(first.deviceKey != second.deviceKey)
        #expect(DeviceKey(first.deviceKey) != nil)
        var named = anonymous
        named.deviceKey = "kitchen-speaker"
        #expect(StationClient(configuration: named).deviceKey == "kitchen-speaker")
        // Not a key (the server would refuse the connection): the client's own.
        named.deviceKey = "kitchen speaker"
        let fallback = StationClient(configuration: named).deviceKey
        #expect(fallback != "kitchen speaker" && DeviceKey(fallback) != nil)
        #expect(await anonymous.accessToken() == nil)
    }

    @Test func accessAndTheDJRoleAreTracked() {
        var model = StationModel()
        #expect(model.access == .none)
        _ = model.receive(SequencedServerMessage(seq: 1, message: .access(role: .listener)))
        _ = model.receive(SequencedServerMessage(seq: 2, message: .role(role: "listener", epoch: 1)))
        #expect(model.access == .listener)
        #expect(!model.isDJ)
        _ = model.receive(SequencedServerMessage(seq: 3, message: .access(role: .codj)))
        _ = model.receive(SequencedServerMessage(seq: 4, message: .role(role: "dj", epoch: 2)))
        #expect(model.access == .codj)
        #expect(model.isDJ)
        #expect(model.djEpoch == 2)
        // Removed and ended change nothing in the model: the client acts on them.
        #expect(model.receive(SequencedServerMessage(seq: 5, message: .removed(person: PersonRef(id: "g1", name: "X"), reason: "kicked"))) == .none)
        #expect(model.receive(SequencedServerMessage(seq: 6, message: .ended)) == .none)
        #expect(model.access == .codj)
    }
}

@Suite("Station model while paused")
struct PausedModelTests {
    @Test func aPausedStationPlansSilenceAtTheFrozenPosition() {
        var window = StationModelTests.window(revision: 2, starts: [0, 1000])
        window.pausedAt = 400
        var model = StationModel()
        _ = model.receive(SequencedServerMessage(seq: 1, message: .update(window)))
        let plan = model.plan(at: 5_000)!
        #expect(plan.paused)
        #expect(plan.current?.id == "e0")
        #expect(plan.fileOffsetMs == 400)
    }
}

@Suite("Station model under out-of-order and junk input")
struct StationModelFuzzTests {
    @Test func shuffledMessagesNeverMoveTheModelBackwards() {
        var rng = SeededRandom(seed: 11)
        for _ in 0..<50 {
            var messages: [SequencedServerMessage] = (1...40).map { seq in
                let revision = Int64(seq / 2)
                return SequencedServerMessage(
                    seq: UInt64(seq),
                    message: seq % 3 == 0
                        ? .listeners(count: seq) : .update(StationModelTests.window(revision: revision, starts: [Int64(seq) * 10])))
            }
            messages.shuffle(using: &rng)
            var model = StationModel()
            var highest: Int64 = -1
            for message in messages {
                _ = model.receive(message)
                let revision = model.revision ?? -1
                #expect(revision >= highest)
                highest = revision
            }
        }
    }

    /// Until a new connection hears its role, its epoch is the last
    /// connection's: the client holds commands until then.
    @Test func aNewConnectionKnowsItsRoleOnlyOnceTold() {
        var model = StationModel()
        #expect(!model.roleKnown)
        _ = model.receive(SequencedServerMessage(seq: 1, message: .role(role: "dj", epoch: 1)))
        #expect(model.roleKnown && model.djEpoch == 1)
        model.connectionOpened()
        #expect(!model.roleKnown)
        #expect(model.djEpoch == 1)  // the old one, not to be sent
        _ = model.receive(SequencedServerMessage(seq: 1, message: .role(role: "dj", epoch: 2)))
        #expect(model.roleKnown && model.djEpoch == 2 && model.isDJ)
    }
}
