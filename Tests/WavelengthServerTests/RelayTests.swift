import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import WavelengthCore
import WavelengthWire

@testable import WavelengthServer

/// A listener of a station another node runs is served where it landed:
/// that node opens the station's feed from the node running it
/// (`StationFeed`), whose hub seats the listener as one of its own. So a
/// relayed listener hears and does everything one on the owner's node does:
/// chat, commands, the party; the owner too.
@Suite("A station relayed by another node", .enabled(if: TestStore.current == .postgres), .timeLimit(.minutes(5)))
struct RelayTests {
    @Test func aListenerOnAnotherNodeHearsTheSameTimelineAndEveryChange() async throws {
        // Longer leases than the default 3 s: the station moves only when the
        // test makes it, and renewals (every 3 s, each reading who relays
        // what) still come often enough for a test.
        try await ClusterTests.withTwoNodes(leaseSeconds: 9) { postgres, _, nodes in
            let (nodeA, nodeB) = nodes
            try await nodeA.application().test(.live) { a in
                try await nodeB.application().test(.live) { b in
                    try await ClusterTests.reachable(postgres, ["a": a.port!, "b": b.port!])
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

                    // Only B, which holds the cluster's keys, opens the feed:
                    // a client can't, even on a cluster (it would choose who
                    // its listeners are).
                    let forged = try await a.execute(
                        uri: "/cluster/stations/\(owner.stationID)/feed", method: .get,
                        headers: [.wavelengthNode: "b", .wavelengthNodeProof: String(repeating: "0", count: 64)])
                    #expect(forged.status == .forbidden)

                    // Chat and commands pass through B to the station's hub,
                    // and the owner drives the station from B.
                    try listener.send(.ping(nonce: "n"))
                    _ = try await listener.next(where: { $0.type == "pong" })
                    let ownerOnB = LiveClient(port: b.port!, path: path, token: owner.token)
                    defer { ownerOnB.close() }
                    _ = try await ownerOnB.snapshot()
                    #expect(try await ownerOnB.access() == .owner)
                    try ownerOnB.send(.command(CommandRequest(id: "pause-on-b", command: .pause)))
                    let pausedFromB = try await ownerOnB.ack("pause-on-b")
                    #expect(try await listener.update(atLeast: pausedFromB.revision).pausedAt != nil)
                    #expect(try await dj.update(atLeast: pausedFromB.revision).pausedAt != nil)
                    try ownerOnB.send(.chat(id: "hello", text: "hello from B"))
                    for client in [dj, listener, ownerOnB] {
                        _ = try await client.next(where: {
                            if case .chat(let message, _) = $0 { message.text == "hello from B" } else { false }
                        })
                    }

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

                    // A party goes on for B's listeners: they hear it, and
                    // a guest on B requests a song.
                    let party = try await a.send(
                        "/api/stations/\(owner.stationID)/party", .patch, as: owner, body: PartySettingsPatch(mode: .requests))
                    #expect(party.status == .ok)
                    let guestAtParty = LiveClient(port: b.port!, path: path, token: try await b.guest("Pia").token)
                    defer { guestAtParty.close() }
                    _ = try await guestAtParty.snapshot()
                    _ = try await guestAtParty.next(where: { if case .party = $0 { true } else { false } })
                    let track = try #require(skippedOnA.upNext.first?.track.id)
                    try guestAtParty.send(.command(CommandRequest(id: "ask", command: .request(trackID: track))))
                    _ = try await guestAtParty.ack("ask")
                    for client in [dj, listener] {
                        _ = try await client.next(where: {
                            if case .party(let view) = $0 { view.requests.contains { $0.track.id == track } } else { false }
                        })
                    }
                }
            }
        }
    }

    /// The node running the station keeps it on the air while only other
    /// nodes' listeners hear it, and everyone sees the cluster's count: the
    /// hub seats every listener, wherever they landed.
    @Test func relayedListenersKeepTheStationOnTheAirAndAreCounted() async throws {
        // Leases that outlast a loaded machine's stalls (the default 3 s may
        // lapse, and the station move, with its listeners, mid-test).
        try await ClusterTests.withTwoNodes(leaseSeconds: 6) { postgres, _, nodes in
            let (nodeA, nodeB) = nodes
            try await nodeA.application().test(.live) { a in
                try await nodeB.application().test(.live) { b in
                    try await ClusterTests.reachable(postgres, ["a": a.port!, "b": b.port!])
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
                }
            }
        }
    }

    /// The updates at one revision, as the owner's listener and the relayed
    /// one got them.
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
