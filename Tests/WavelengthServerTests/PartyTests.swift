import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WavelengthCore
import WavelengthWire

/// The party over HTTP and the live WebSocket: the owner turns requests on,
/// guests request and vote, the host overrides, and votes survive a restart.
@Suite("The party", .timeLimit(.minutes(5)))
struct PartyTests {
    /// Two tracks that are neither playing nor lined up on `station` now.
    static func freeTracks(_ client: some TestClientProtocol, station: String, count: Int) async throws -> [TrackSummary] {
        let all = try await client.execute(uri: "/api/library/tracks?limit=500", method: .get).decode([TrackSummary].self)
        let window = try await client.timeline(station)
        let busy = Set(([window.current].compactMap { $0 } + window.upNext + window.history).map(\.track.id))
        return Array(all.filter { !busy.contains($0.id) }.prefix(count))
    }

    @Test func guestsRequestAndVoteAndOnlyTheHostSeesTheCounts() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let host = try await client.signUp()
            let station = host.stationID
            let opened = try await client.send(
                "/api/stations/\(station)/party", .patch, as: host, body: PartySettingsPatch(mode: .requests))
            #expect(opened.status == .ok)
            let path = "/api/stations/\(station)/live"
            let hostSocket = LiveClient(port: client.port!, path: path, token: host.token)
            let firstParty = try await hostSocket.next { $0.type == "party" }
            guard case .party(let empty) = firstParty else { return }
            #expect(empty.mode == .requests)
            #expect(empty.requests.isEmpty)
            // The station pauses so a 3 s test song can't end mid-test.
            try hostSocket.send(.command(CommandRequest(id: "hold", command: .pause)))
            _ = try await hostSocket.ack("hold")

            let ann = try await client.guest("Ann")
            let bo = try await client.guest("Bo")
            let annSocket = LiveClient(port: client.port!, path: path, token: ann.token)
            _ = try await annSocket.next { $0.type == "party" }
            let tracks = try await Self.freeTracks(client, station: station, count: 3)

            // Ann's first request is lined up at once (nothing else was asked for).
            try annSocket.send(.command(CommandRequest(id: "a1", command: .request(trackID: tracks[0].id))))
            let first = try await annSocket.ack("a1")
            let scheduled = try await annSocket.update(atLeast: first.revision)
            #expect(scheduled.upNext.first?.track.id == tracks[0].id)
            #expect(scheduled.upNext.first?.source == .request)

            // Her second waits in the queue; Bo upvotes it over HTTP.
            try annSocket.send(.command(CommandRequest(id: "a2", command: .request(trackID: tracks[1].id))))
            _ = try await annSocket.ack("a2")
            let waiting = try await client.send("/api/stations/\(station)/party", .get, as: ann).decode(PartyView.self)
            // The first stays in the list as Ann's, lined up, until it starts.
            let linedUp = try #require(waiting.requests.first)
            #expect(linedUp.track.id == tracks[0].id && linedUp.linedUp && linedUp.requesterName == "Ann")
            let request = try #require(waiting.requests.dropFirst().first)
            #expect(request.track.id == tracks[1].id)
            #expect(!request.linedUp)
            #expect(request.requesterName == "Ann")
            #expect(request.upvotes == nil)  // guests don't see counts by default
            #expect(waiting.myVotes?[request.id] == .up)
            let vote = try await client.send(
                "/api/stations/\(station)/commands", .post, as: bo,
                body: CommandRequest(id: "b1", command: .vote(requestID: request.id, vote: .up)))
            #expect(vote.status == .ok)
            let seenByHost = try await hostSocket.next {
                if case .party(let party) = $0 { party.requests.first { !$0.linedUp }?.upvotes == 2 } else { false }
            }
            guard case .party(let hostView) = seenByHost else { return }
            #expect(hostView.requests.first { !$0.linedUp }?.id == request.id)
            let seenByAnn = try await annSocket.next {
                if case .party(let party) = $0 { party.requests.count == 2 } else { false }
            }
            guard case .party(let annView) = seenByAnn else { return }
            #expect(annView.requests.first?.upvotes == nil)

            // The host vetoes it; everyone is told, and it can't come back.
            try hostSocket.send(.command(CommandRequest(id: "h1", command: .vetoRequest(requestID: request.id))))
            _ = try await hostSocket.ack("h1")
            let told = try await annSocket.next { $0.type == "hostOverride" }
            #expect(told == .hostOverride(kind: "vetoed", trackID: tracks[1].id, requesterName: "Ann"))
            try annSocket.send(.command(CommandRequest(id: "a3", command: .request(trackID: tracks[1].id))))
            await #expect(throws: LiveClient.Refused.self) { try await annSocket.ack("a3") }
            hostSocket.close()
            annSocket.close()
        }
    }

    @Test func badPartyInputIsRefusedClearlyAndChangesNothing() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let host = try await client.signUp()
            let station = host.stationID
            let guest = try await client.guest("Cy")
            let tracks = try await Self.freeTracks(client, station: station, count: 3)
            func send(_ command: StationCommand, as account: TestAccount?) async throws -> TestResponse {
                try await client.send(
                    "/api/stations/\(station)/commands", .post, as: account,
                    body: CommandRequest(id: "c-\(UUID().uuidString)", command: command))
            }
            // Requests are off until the owner turns them on.
            #expect(try await send(.request(trackID: tracks[0].id), as: guest).errorCode == "not_requests_mode")
            // Only the owner changes the rules, and only to sane values.
            let byGuest = try await client.send(
                "/api/stations/\(station)/party", .patch, as: guest, body: PartySettingsPatch(mode: .requests))
            #expect(byGuest.status == .forbidden)
            let silly = try await client.send(
                "/api/stations/\(station)/party", .patch, as: host,
                body: PartySettingsPatch(mode: .requests, maxPendingPerPerson: 0))
            #expect(silly.status == .badRequest)
            #expect(silly.errorCode == "invalid_settings")
            let opened = try await client.send(
                "/api/stations/\(station)/party", .patch, as: host,
                body: PartySettingsPatch(mode: .requests, maxPendingPerPerson: 1))
            #expect(opened.status == .ok)

            #expect(try await send(.request(trackID: tracks[0].id), as: guest).status == .ok)
            let overCap = try await send(.request(trackID: tracks[1].id), as: guest)
            #expect(overCap.status == .conflict)
            #expect(overCap.errorCode == "too_many_requests")
            let unknown = try await send(.vote(requestID: "nope", vote: .up), as: guest)
            #expect(unknown.status == .notFound)
            #expect(unknown.errorCode == "unknown_request")
            #expect(try await send(.request(trackID: "no-such-track"), as: guest).errorCode == "unknown_track")
            #expect(try await send(.request(trackID: tracks[2].id), as: nil).status == .unauthorized)
            let malformed = try await client.execute(
                uri: "/api/stations/\(station)/commands", method: .post,
                headers: [.authorization: "Bearer \(guest.token)", .contentType: "application/json"],
                body: ByteBuffer(string: #"{"id":"v","command":{"op":"vote","requestID":"x","vote":"sideways"}}"#))
            #expect(malformed.status == .badRequest)

            let party = try await client.send("/api/stations/\(station)/party", .get, as: host).decode(PartyView.self)
            #expect(party.requests.map(\.track.id) == [tracks[0].id])
            #expect(party.requests.first?.upvotes == 1)
        }
    }

    @Test func anAcknowledgedVoteSurvivesARestart() async throws {
        let data = NSTemporaryDirectory() + "wavelength-test-\(UUID().uuidString)"
        let first = try await TestServer.make(dataDirectory: data)
        let (station, requestID) = try await first.application().test(.router) { client in
            let host = try await client.signUp()
            let station = host.stationID
            _ = try await client.send(
                "/api/stations/\(station)/party", .patch, as: host,
                body: PartySettingsPatch(mode: .requests, showVoteCounts: true))
            let track = try #require(try await Self.freeTracks(client, station: station, count: 1).first)
            let ann = try await client.guest("Ann")
            let bo = try await client.guest("Bo")
            let asked = try await client.send(
                "/api/stations/\(station)/commands", .post, as: ann,
                body: CommandRequest(id: "r", command: .request(trackID: track.id)))
            #expect(asked.status == .ok)
            let party = try await client.send("/api/stations/\(station)/party", .get, as: ann).decode(PartyView.self)
            let requestID = try #require(party.requests.first?.id)
            let voted = try await client.send(
                "/api/stations/\(station)/commands", .post, as: bo,
                body: CommandRequest(id: "v", command: .vote(requestID: requestID, vote: .down)))
            #expect(voted.status == .ok)
            return (station, requestID)
        }
        let second = try await TestServer.make(dataDirectory: data)
        try await second.application().test(.router) { client in
            let party = try await client.execute(uri: "/api/stations/\(station)/party", method: .get).decode(PartyView.self)
            #expect(party.mode == .requests)
            #expect(party.requests.map(\.id) == [requestID])
            #expect(party.requests.first?.upvotes == 1)
            #expect(party.requests.first?.downvotes == 1)
        }
    }
}
