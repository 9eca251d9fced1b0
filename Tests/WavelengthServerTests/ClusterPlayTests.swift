import Foundation
import HummingbirdTesting
import Testing
import WavelengthClient
import WavelengthCore
import WavelengthPostgres
import WavelengthTestSupport
import WavelengthWire

@testable import WavelengthServer

/// A party across three nodes, as play: the station runs on A, its host
/// drives it from B, guests listen on every node, request, vote, chat, leave
/// and come back, while the host skips, vetoes and plays requests now. After
/// every event every listener, wherever it landed, hears what the station's
/// own node says (`StationFeed`): the same revision and timeline, the same
/// party queue, the same chat, the same count, with no message missed.
@Suite("A party across three nodes", .enabled(if: TestStore.current == .postgres), .timeLimit(.minutes(8)))
struct ClusterPlayTests {
    /// What a listener heard that every listener must agree on.
    struct Heard: Equatable, CustomStringConvertible {
        var revision: Int64?
        var mode: ProgrammingMode?
        var requests: [RequestID]
        var chat: [String]
        var listeners: Int

        init(_ model: StationModel) {
            revision = model.revision
            mode = model.party?.mode
            requests = model.party?.requests.map(\.id) ?? []
            chat = model.chat.suffix(10).map(\.id)
            listeners = model.listeners
        }

        var description: String {
            "r\(revision ?? -1) \(mode.map { "\($0)" } ?? "-") requests \(requests) chat \(chat.count) listeners \(listeners)"
        }
    }

    @Test func everyListenerOnEveryNodeHearsWhatTheStationsNodeSays() async throws {
        try await Self.withNodes(["a", "b", "c"]) { postgres, servers in
            try await servers[0].application().test(.live) { a in
                try await servers[1].application().test(.live) { b in
                    try await servers[2].application().test(.live) { c in
                        try await ClusterTests.reachable(postgres, ["a": a.port!, "b": b.port!, "c": c.port!])
                        try await play(nodes: [a, b, c], relays: [servers[1], servers[2]])
                    }
                }
            }
        }
    }

    private func play(nodes: [any TestClientProtocol], relays: [TestServer]) async throws {
        let (a, b) = (nodes[0], nodes[1])
        let host = try await a.signUp()
        let path = "/api/stations/\(host.stationID)/live"
        let hearing = Hearing()
        // The TV in the room, on A first: the station runs on A.
        let tv = ModelListener("tv on a", port: a.port!, path: path, token: nil, hearing: hearing)
        defer { tv.close() }
        try await until(hearing, "the TV's snapshot") { tv.model.revision != nil }
        let opened = try await b.send(
            "/api/stations/\(host.stationID)/party", .patch, as: host, body: PartySettingsPatch(mode: .requests))
        #expect(opened.status == .ok)
        // The host drives the party from B.
        let hostOnB = ModelListener("host on b", port: b.port!, path: path, token: host.token, hearing: hearing)
        defer { hostOnB.close() }
        var guests: [(ModelListener, TestAccount)] = []
        for (index, node) in nodes.enumerated() {
            for seat in 0..<2 {
                let account = try await node.guest("Guest \(index)\(seat)")
                let name = "guest \(index)\(seat) on \(["a", "b", "c"][index])"
                guests.append((ModelListener(name, port: node.port!, path: path, token: account.token, hearing: hearing), account))
            }
        }
        defer { for (guest, _) in guests { guest.close() } }
        let tracks = try await a.tracks().map(\.id)
        var random = SeededRandom(seed: 0x5EED_55)
        var commands = 0
        try await settle(hearing, [tv, hostOnB] + guests.map(\.0), after: "everyone joined")

        for event in 1...80 {
            let everyone = [tv, hostOnB] + guests.map(\.0)
            let waiting = tv.model.party?.requests.filter { !$0.linedUp }.map(\.id) ?? []
            let guestIndex = Int.random(in: 0..<guests.count, using: &random)
            let (guest, account) = guests[guestIndex]
            commands += 1
            let id = "e\(commands)"
            var said = ""
            var command: (ModelListener, StationCommand)?
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<30:
                let track = tracks[Int.random(in: 0..<tracks.count, using: &random)]
                command = (guest, .request(trackID: track))
                said = "\(guest.name) requests \(track)"
            case 30..<50 where !waiting.isEmpty:
                let request = waiting[Int.random(in: 0..<waiting.count, using: &random)]
                command = (guest, .vote(requestID: request, vote: Bool.random(using: &random) ? .up : .down))
                said = "\(guest.name) votes on \(request)"
            case 50..<68:
                try guest.send(.chat(id: id, text: "note \(event) from \(guest.name)"))
                said = "\(guest.name) chats"
                try await until(hearing, said) { tv.model.chat.contains { $0.text == "note \(event) from \(guest.name)" } }
            case 68..<76:
                command = (hostOnB, .skip(entryID: nil))
                said = "the host skips"
            case 76..<84 where !waiting.isEmpty:
                command = (hostOnB, .vetoRequest(requestID: waiting[0]))
                said = "the host vetoes \(waiting[0])"
            case 84..<90 where !waiting.isEmpty:
                command = (hostOnB, .playRequestNow(requestID: waiting.last!))
                said = "the host plays \(waiting.last!) now"
            default:
                // A guest leaves and comes back, on any node.
                guest.close()
                let node = Int.random(in: 0..<nodes.count, using: &random)
                let again = ModelListener(
                    "\(guest.name) back on \(["a", "b", "c"][node])", port: nodes[node].port!, path: path, token: account.token,
                    hearing: hearing)
                guests[guestIndex] = (again, account)
                said = "\(guest.name) leaves and comes back on \(["a", "b", "c"][node])"
            }
            if let (sender, command) = command {
                try sender.send(.command(CommandRequest(id: id, command: command)))
                try await until(hearing, "the answer to \(said)") { sender.answer(id) != nil }
            }
            let now = [tv, hostOnB] + guests.map(\.0)
            try await settle(hearing, now, after: "event \(event): \(said)")
            _ = everyone
        }
        // Most listeners were on B and C: the feeds carried them.
        let relayed = await relays[0].services.directory.relayedListeners().values.reduce(0, +)
            + relays[1].services.directory.relayedListeners().values.reduce(0, +)
        #expect(relayed >= 4)
    }

    /// Waits until every listener agrees with the station's own node (the
    /// TV on A), then checks what must hold after every event.
    private func settle(_ hearing: Hearing, _ everyone: [ModelListener], after event: String) async throws {
        try await until(hearing, "everyone agreeing after \(event)") {
            let reference = Heard(everyone[0].model)
            return reference.listeners == everyone.count && everyone.allSatisfy { Heard($0.model) == reference }
        } else: {
            everyone.map { "\($0.name): \(Heard($0.model))" }.joined(separator: "\n")
        }
        let reference = everyone[0].model
        for listener in everyone {
            #expect(listener.gaps == 0, "\(listener.name) missed a message by \(event)")
            #expect(listener.closedReason == nil, "\(listener.name) was closed by \(event): \(listener.closedReason ?? "")")
            // One revision is one timeline: every entry both windows hold is the same.
            let mine = Dictionary(uniqueKeysWithValues: (listener.model.window?.allEntries ?? []).map { ($0.id, $0) })
            for entry in reference.window?.allEntries ?? [] {
                guard let other = mine[entry.id] else { continue }
                #expect(other.start == entry.start && other.track.id == entry.track.id, "\(listener.name) after \(event)")
            }
        }
    }

    /// Waits, without sleeping, until `condition` holds: whenever any
    /// listener hears something it is asked again. A minute without it
    /// fails the test, saying what was waited for.
    private func until(
        _ hearing: Hearing, _ what: String, _ condition: () -> Bool, else state: () -> String = { "" }
    ) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("Still waiting for \(what)\n\(state())")
                throw CancellationError()
            }
            let seen = await hearing.heardSoFar
            if condition() { return }
            let alarm = Task {
                try await Task.sleep(until: deadline)
                await hearing.heard()
            }
            await hearing.wait(after: seen)
            alarm.cancel()
        }
    }

    /// Nodes on a new PostgreSQL sharing their signing keys, with leases
    /// long enough that the station stays on A through the play.
    static func withNodes(
        _ names: [String], _ body: (PostgresServer, [TestServer]) async throws -> Void
    ) async throws {
        try await PostgresServer.with { postgres in
            let stores = try names.map { try ClusterTests.node($0, postgres) }
            for store in stores { store.leaseSeconds = 30 }
            let pools = stores.map { store in Task { await store.run() } }
            defer { for pool in pools { pool.cancel() } }
            try await stores[0].migrate()
            var servers = [try await TestServer.make(storage: stores[0])]
            for store in stores.dropFirst() {
                let data = NSTemporaryDirectory() + "wavelength-node-\(UUID().uuidString)"
                try FileManager.default.createDirectory(
                    atPath: data, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                try FileManager.default.copyItem(atPath: servers[0].dataDirectory + "/keys", toPath: data + "/keys")
                servers.append(try await TestServer.make(dataDirectory: data, storage: store))
            }
            try await body(postgres, servers)
        }
    }
}

extension TimelineWindow {
    /// Every entry the window holds.
    var allEntries: [EntryView] { history + (current.map { [$0] } ?? []) + upNext }
}
