import Foundation
import Logging
import Testing
import WavelengthCore
import WavelengthLibrary
import WavelengthSQLite
import WavelengthTestSupport
import WavelengthWire
@testable import WavelengthServer

/// The hub as a thin loop around the station machine: real actions
/// performed against an in-memory store and a hand-moved clock. No SQLite,
/// no sockets, no sleeps.
@Suite("Station hub")
struct StationHubTests {
    struct Refused: Error, Equatable {}

    /// One connection's queue, read message by message.
    struct Listener {
        let id: ConnectionID
        let queue: AsyncStream<LiveOutgoing>.Continuation
        var messages: AsyncStream<LiveOutgoing>.Iterator

        init() {
            let (stream, queue) = AsyncStream<LiveOutgoing>.makeStream()
            id = ConnectionIDs.next()
            self.queue = queue
            messages = stream.makeAsyncIterator()
        }

        /// The next message of `type`, skipping others; nil when the queue closed.
        mutating func next(_ type: String) async throws -> ServerMessage? {
            while let outgoing = await messages.next() {
                guard case .text(let text) = outgoing else { continue }
                let message = try JSONDecoder().decode(ServerMessage.self, from: Data(text.text.utf8))
                if message.type == type { return message }
            }
            return nil
        }
    }

    let manual = ManualClock()
    var clock: ManualClock.Wall { manual.wall }
    let store: InMemoryStore
    let context: StationContext
    let hub: StationHub

    init() async throws {
        let wall = manual.wall
        store = InMemoryStore(tracks: (1...6).map(Self.track))
        context = StationContext(
            repository: store, catalog: LibraryCatalog(tracks: store), clock: wall, sleeper: manual,
            makeRandom: { AnyRandom(SeededRandom(seed: 42)) },
            machineSettings: .init(djGraceMillis: 20_000, commitLead: 300), logger: Logger(label: "test"))
        let record = try await store.insertStation(
            StationRecord(
                id: "s1", name: "Test FM", owner: "Owner", ownerID: "p-owner", frequency: nil,
                quietSince: wall.now(), createdAt: wall.now()),
            now: wall.now(), band: FrequencyBand(tiers: [["101.1"]]), ownerLimit: nil
        ).record
        let loaded = try #require(try await store.loadStation(id: record.id))
        hub = StationHub(loaded: loaded, context: context)
    }

    static func track(_ n: Int) -> TrackRecord {
        let metadata = TrackMetadata(
            title: "Song \(n)", artist: "Artist \(n % 3)", album: "Album", albumArtist: "Artist \(n % 3)",
            durationMs: Int64(60_000 + n * 1000), format: .mp3, codec: "mp3", hasEmbeddedArt: false)
        let file = ScannedFile(
            path: "/music/\(n).mp3", stamp: FileStamp(size: 1, mtimeNs: 1), fingerprint: "f\(n)", metadata: metadata)
        return TrackRecord(id: "t\(n)", file: file, addedAt: 0)
    }

    func connect(_ seat: Seat) async throws -> Listener {
        let listener = Listener()
        try await hub.connect(listener.id, queue: listener.queue, since: nil, seat: seat)
        return listener
    }

    @Test func aRefusedSaveLeavesNothingVisibleAndTheCommandCanBeSentAgain() async throws {
        var owner = try await connect(Seat(personID: "p-owner", name: "Owner", role: .owner))
        _ = try await owner.next("snapshot")
        let revision = await hub.revision
        await store.failSaves(with: Refused())
        let request = CommandRequest(id: "c-1", command: .append(trackID: "t3"), epoch: nil)
        await #expect(throws: Refused.self) { try await hub.apply(request, from: .connection(owner.id)) }
        #expect(await hub.revision == revision)
        #expect(await store.savedState(of: "s1")?.revision == revision)
        await store.failSaves(with: nil)
        let ack = try await hub.apply(request, from: .connection(owner.id))
        #expect(!ack.duplicate)
        #expect(ack.revision == revision + 1)
        // The only update the owner saw is the one that was saved.
        let update = try #require(try await owner.next("update"))
        guard case .update(let window) = update else { return }
        #expect(window.revision >= ack.revision)
    }

    @Test func songsTheRoomsFavouritesFansSavedAreMarkedForTheRobot() async throws {
        let loaded = try #require(try await store.loadStation(id: "s1"))
        let hub = StationHub(
            loaded: loaded,
            context: StationContext(
                repository: store, catalog: LibraryCatalog(tracks: store, likes: store), clock: clock, sleeper: manual,
                makeRandom: { AnyRandom(SeededRandom(seed: 42)) },
                machineSettings: .init(djGraceMillis: 20_000, commitLead: 300), logger: Logger(label: "test")))
        let listener = Listener()
        var messages = listener
        try await hub.connect(
            listener.id, queue: listener.queue, since: nil, seat: Seat(personID: "p-l", name: "L", role: .listener))
        guard case .snapshot(let snapshot) = try #require(try await messages.next("snapshot")) else { return }
        let current = try #require(snapshot.timeline.current)
        let other = try #require((1...6).map { "t\($0)" }.first { $0 != current.track.id })
        // Two people, on any station, saved the playing song and another.
        for person in ["p-a", "p-b"] {
            for track in [current.track.id, other] {
                #expect(try await store.like(personID: person, trackID: track, at: clock.now(), limit: 10))
            }
        }
        // One person alone saving a pair is no pattern (and would name them).
        let third = try #require((1...6).map { "t\($0)" }.last { $0 != current.track.id && $0 != other })
        #expect(try await store.like(personID: "p-c", trackID: current.track.id, at: clock.now(), limit: 10))
        #expect(try await store.like(personID: "p-c", trackID: third, at: clock.now(), limit: 10))
        #expect(try await hub.robotInputs().track(other)?.coLikedWith == nil)  // the room likes nothing yet
        // The room likes the playing song.
        _ = try await hub.apply(
            CommandRequest(id: "c-thumb", command: .thumb(entryID: current.id, up: true), epoch: nil),
            from: .connection(listener.id))
        let marked = try #require(try await hub.robotInputs().track(other)?.coLikedWith)
        #expect(marked.seed == current.track.id && marked.people == 2)
        #expect(try await hub.robotInputs().track(third)?.coLikedWith == nil)
        #expect(marked.seedTitle == "Song \(current.track.id.dropFirst())")
        let unrelated = try #require((1...6).map { "t\($0)" }.first { ![current.track.id, other, third].contains($0) })
        #expect(try await hub.robotInputs().track(unrelated)?.coLikedWith == nil)
    }

    @Test func timersRunOnTheInjectedClock() async throws {
        var listener = try await connect(.anonymous)
        guard case .snapshot(let snapshot) = try #require(try await listener.next("snapshot")) else { return }
        let current = try #require(snapshot.timeline.current)
        let revision = snapshot.revision
        // Time moves past the current entry: the tick fires, history settles
        // and the robot tops up; the listener is told.
        manual.advance(by: .milliseconds(current.expiration - clock.now() + 1))
        guard case .update(let window) = try #require(try await listener.next("update")) else { return }
        #expect(window.revision > revision)
        #expect(window.history.contains { $0.id == current.id })
    }

    @Test func aDroppedDJsCoDJIsPromotedWhenTheGraceRunsOut() async throws {
        let owner = try await connect(Seat(personID: "p-owner", name: "Owner", role: .owner))
        var codj = try await connect(Seat(personID: "p-codj", name: "Co", role: .codj))
        guard case .role(let role, _) = try #require(try await codj.next("role")) else { return }
        #expect(role == "listener")
        await hub.disconnect(owner.id)
        guard case .dj(_, let present, _) = try #require(try await codj.next("dj")) else { return }
        #expect(!present)
        manual.advance(by: .seconds(20))
        guard case .role(let promoted, let epoch) = try #require(try await codj.next("role")) else { return }
        #expect(promoted == "dj")
        // Commands under the new epoch are answered.
        let ack = try await hub.apply(
            CommandRequest(id: "c-2", command: .append(trackID: "t2"), epoch: epoch), from: .connection(codj.id))
        #expect(!ack.duplicate)
    }

    @Test func aCoDJGrantedIntoAnEmptyBoothTakesItAndIsAnswered() async throws {
        let owner = try await connect(Seat(personID: "p-owner", name: "Owner", role: .owner))
        var guest = try await connect(Seat(personID: "p-guest", name: "Guest", role: .listener))
        await hub.disconnect(owner.id)
        manual.advance(by: .seconds(20))  // the grace runs out with nobody to promote
        _ = try await guest.next("dj")
        await hub.setRole(of: "p-guest", to: .codj)
        guard case .access(let access) = try #require(try await guest.next("access")), access == .codj else {
            Issue.record("no access message")
            return
        }
        guard case .role(let role, let epoch) = try #require(try await guest.next("role")) else { return }
        #expect(role == "dj")
        let ack = try await hub.apply(
            CommandRequest(id: "c-3", command: .skip(entryID: nil), epoch: epoch), from: .connection(guest.id))
        #expect(!ack.duplicate)
    }

    @Test func theLastListenerLeavingSavesTheStationQuietAndStopsTimers() async throws {
        let listener = try await connect(.anonymous)
        #expect(await hub.isOnAir)
        await hub.disconnect(listener.id)
        #expect(await hub.listenerCount == 0)
        #expect(await store.savedState(of: "s1")?.isOnAir == false)
    }

    @Test func aListenerWhoLeavesIsNeverLeftCountedEvenWhenSavingFails() async throws {
        let listener = try await connect(.anonymous)
        await store.failSaves(with: Refused())
        await hub.disconnect(listener.id)
        #expect(await hub.listenerCount == 0)
    }
}
