import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WavelengthCore
import WavelengthWire

/// The lobby over HTTP and the live WebSocket: the owner makes the station
/// a lobby, a guest gets the ballot and their standing, and bad ballot votes
/// get clear codes on both transports. (Ballots on the clock are tested in
/// the hub's tests with a hand-moved clock.)
@Suite("The lobby", .timeLimit(.minutes(5)))
struct LobbyTests {
    @Test func aGuestGetsTheBallotAndTheirStandingAndBadVotesAreRefused() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let host = try await client.signUp()
            let station = host.stationID
            let made = try await client.send(
                "/api/stations/\(station)/party", .patch, as: host, body: PartySettingsPatch(mode: .lobby))
            #expect(made.status == .ok)
            #expect(try made.decode(PartyView.self).mode == .lobby)

            let ann = try await client.guest("Ann")
            let socket = LiveClient(port: client.port!, path: "/api/stations/\(station)/live", token: ann.token)
            guard case .party(let party) = try await socket.next(where: { $0.type == "party" }) else { return }
            #expect(party.mode == .lobby)
            guard case .standing(let standing) = try await socket.next(where: { $0.type == "standing" }) else { return }
            #expect(standing.weight == 1)
            #expect(standing.vote == nil)

            // A vote on a ballot that isn't open: refused with a code, on the socket.
            try socket.send(.command(CommandRequest(id: "v1", command: .ballotVote(ballotID: "b999", trackID: "t1"))))
            let refused = try await socket.error()
            #expect(refused.id == "v1")
            #expect(["ballot_closed", "no_ballot"].contains(refused.code))

            // Over HTTP, her own standing comes with the party.
            let seen = try await client.send("/api/stations/\(station)/party", .get, as: ann).decode(PartyView.self)
            #expect(seen.standing?.weight == 1)

            // A station that isn't a lobby takes no ballot votes.
            let other = try await client.signUp()
            let notLobby = try await client.send(
                "/api/stations/\(other.stationID)/commands", .post, as: ann,
                body: CommandRequest(id: "v2", command: .ballotVote(ballotID: "b1", trackID: "t1")))
            #expect(notLobby.status == .conflict)
            #expect(notLobby.errorCode == "not_lobby_mode")
            // Nor may a listener decide a ballot.
            let elect = try await client.send(
                "/api/stations/\(station)/commands", .post, as: ann,
                body: CommandRequest(id: "v3", command: .elect(ballotID: "b1", trackID: "t1")))
            #expect(elect.status == .forbidden)
        }
    }
}
