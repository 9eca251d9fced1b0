import Foundation
import HummingbirdTesting
import Testing
import WavelengthCore
import WavelengthWire

@testable import WavelengthServer

/// A listener of a station another node runs is served where it landed:
/// that node relays the station (`StationRelay`), from the same stored
/// timeline, each change reaching it through the cluster's signals. It
/// listens only; whoever may control the station is sent to its node.
@Suite("A station relayed by another node", .enabled(if: TestStore.current == .postgres), .timeLimit(.minutes(5)))
struct RelayTests {
    @Test func aListenerOnAnotherNodeHearsTheSameTimelineAndEveryChange() async throws {
        // Longer leases than the default 3 s: the station moves only when the
        // test makes it, and renewals (every 3 s, each reading who relays
        // what) still come often enough for a test.
        try await ClusterTests.withTwoNodes(leaseSeconds: 9) { _, _, nodes in
            let (nodeA, nodeB) = nodes
            try await nodeA.application().test(.live) { a in
                try await nodeB.application().test(.live) { b in
                    let owner = try await a.signUp()
                    let path = "/api/stations/\(owner.stationID)/live"
                    let dj = LiveClient(port: a.port!, path: path, token: owner.token)
                    defer { dj.close() }
                    let onA = try await dj.snapshot()

                    // B relays the station A runs: the same timeline.
                    let listener = LiveClient(port: b.port!, path: path)
                    defer { listener.close() }
                    let onB = try await listener.snapshot()
                    #expect(onB.timeline.revision == onA.timeline.revision)
                    #expect(onB.timeline.current?.id == onA.timeline.current?.id)
                    #expect(onB.timeline.current?.start == onA.timeline.current?.start)
                    #expect(onB.timeline.upNext.map(\.id) == onA.timeline.upNext.map(\.id))
                    #expect(onB.station.onAir)
                    #expect(await nodeB.services.directory.relayedListeners()[owner.stationID] == 1)

                    // Every change the DJ makes on A reaches B's listener.
                    try dj.send(.command(CommandRequest(id: "pause", command: .pause)))
                    let paused = try await dj.ack("pause")
                    let (pausedOnA, pausedOnB) = try await Self.sameRevision(dj, listener, atLeast: paused.revision)
                    #expect(pausedOnB.pausedAt == pausedOnA.pausedAt)
                    #expect(pausedOnB.current?.id == pausedOnA.current?.id)
                    try dj.send(.command(CommandRequest(id: "resume", command: .resume)))
                    let resumed = try await dj.ack("resume")
                    try dj.send(.command(CommandRequest(id: "skip", command: .skip(entryID: nil))))
                    let skipped = try await dj.ack("skip")
                    #expect(skipped.revision > resumed.revision)
                    let (skippedOnA, skippedOnB) = try await Self.sameRevision(dj, listener, atLeast: skipped.revision)
                    #expect(skippedOnB.pausedAt == nil)
                    #expect(skippedOnB.upNext.map(\.id) == skippedOnA.upNext.map(\.id))
                    #expect(skippedOnB.upNext.map(\.start) == skippedOnA.upNext.map(\.start))
                    // Its audio is named for the station, so a balancer sends a conversion to A.
                    #expect(skippedOnB.upNext.first?.track.audioURL.hasSuffix("?station=\(owner.stationID)") == true)

                    // A relay only listens: chat and commands are refused with
                    // a reason, and the owner is sent to the node running it.
                    try listener.send(.chat(id: "hello", text: "hi"))
                    let refused = try await listener.error()
                    #expect(refused.id == "hello")
                    #expect(refused.code == ErrorCode.serviceUnavailable.rawValue)
                    #expect(refused.message == LiveStation.relayedOnly)
                    try listener.send(.ping(nonce: "n"))
                    _ = try await listener.next(where: { $0.type == "pong" })
                    let ownerOnB = LiveClient(port: b.port!, path: path, token: owner.token)
                    defer { ownerOnB.close() }
                    #expect(try await ownerOnB.error().code == ErrorCode.serviceUnavailable.rawValue)

                    // A ban on A reaches B: the relay's listeners are seated
                    // again at the station's new rules.
                    let guest = try await b.guest("Gus")
                    let banned = LiveClient(port: b.port!, path: path, token: guest.token)
                    defer { banned.close() }
                    _ = try await banned.snapshot()
                    let ban = try await a.send(
                        "/api/stations/\(owner.stationID)/ban", .post, as: owner, body: PersonIDRequest(personID: guest.person.id))
                    #expect(ban.status == .noContent)
                    await banned.closed()
                    let again = LiveClient(port: b.port!, path: path, token: guest.token)
                    defer { again.close() }
                    #expect(try await again.error().code == ErrorCode.banned.rawValue)

                    // A party is heard on its own node (its requests and votes
                    // come from the hub): B's listener is sent there.
                    let party = try await a.send(
                        "/api/stations/\(owner.stationID)/party", .patch, as: owner, body: PartySettingsPatch(mode: .requests))
                    #expect(party.status == .ok)
                    await listener.closed()
                    let guestAtParty = LiveClient(port: b.port!, path: path)
                    defer { guestAtParty.close() }
                    #expect(try await guestAtParty.error().code == ErrorCode.serviceUnavailable.rawValue)
                }
            }
        }
    }

    /// The node running the station keeps it on the air while only other
    /// nodes' listeners hear it, and everyone sees the cluster's count:
    /// each node reports its listeners at every lease renewal.
    @Test func relayedListenersKeepTheStationOnTheAirAndAreCounted() async throws {
        // Leases that outlast a loaded machine's stalls (the default 3 s may
        // lapse, and the station move, with its listeners, mid-test).
        try await ClusterTests.withTwoNodes(leaseSeconds: 6) { _, _, nodes in
            let (nodeA, nodeB) = nodes
            try await nodeA.application().test(.live) { a in
                try await nodeB.application().test(.live) { b in
                    let owner = try await a.signUp()
                    let station = owner.stationID
                    let path = "/api/stations/\(station)/live"
                    let onA = LiveClient(port: a.port!, path: path)
                    defer { onA.close() }
                    _ = try await onA.snapshot()
                    let onB = LiveClient(port: b.port!, path: path)
                    defer { onB.close() }
                    _ = try await onB.snapshot()
                    #expect(await nodeB.services.directory.relayedListeners()[station] == 1)

                    // Both hear the cluster's count: one listener on each node.
                    try await onA.listeners(2)
                    try await onB.listeners(2)

                    // A's listener leaves: B's hears the count fall, and A
                    // still runs the station, on the air, for B's listener.
                    onA.close()
                    try await onB.listeners(1)
                    let hub = try #require(try await nodeA.services.directory.hub(id: station))
                    #expect(await hub.isOnAir)
                    #expect(await hub.relaySeats.count == 1)
                    #expect(await hub.audience.listeners == 1)
                    #expect(await nodeA.services.directory.activeStations().contains(station))
                    let skip = try await a.send(
                        "/api/stations/\(station)/commands", .post, as: owner,
                        body: CommandRequest(id: "skip", command: .skip(entryID: nil)))
                    let skipped = try skip.decode(CommandAck.self)
                    _ = try await onB.update(atLeast: skipped.revision)

                    // B's listener leaves too: nobody listens anywhere, and
                    // A lets the station go quiet.
                    onB.close()
                    var quiet = false
                    for _ in 0..<600 where !quiet {
                        quiet = !(await hub.isOnAir)
                        if !quiet { try await Task.sleep(for: .milliseconds(50)) }
                    }
                    #expect(quiet, "the station stayed on the air with nobody listening")
                    #expect(await hub.relaySeats.isEmpty)
                }
            }
        }
    }

    /// The updates at one revision, as the owner's listener and the relay's
    /// got them: the relay reads the station as stored, so it may skip
    /// revisions the owner's listener saw one by one (the robot DJ adds a
    /// track right after a skip), never the other way round.
    static func sameRevision(_ owner: LiveClient, _ relayed: LiveClient, atLeast revision: Int64) async throws
        -> (TimelineWindow, TimelineWindow)
    {
        let onB = try await relayed.update(atLeast: revision)
        var onA = try await owner.update(atLeast: revision)
        while onA.revision < onB.revision { onA = try await owner.update(atLeast: onB.revision) }
        #expect(onA.revision == onB.revision)
        return (onA, onB)
    }
}
