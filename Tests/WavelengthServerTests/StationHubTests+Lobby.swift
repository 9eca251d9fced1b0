import Foundation
import Testing
import WavelengthCore
import WavelengthWire
@testable import WavelengthServer

/// The lobby through the hub: ballots open and close on the injected clock,
/// the winner starts when the song ends, and an acknowledged vote survives
/// a restart. An in-memory store and a hand-moved clock.
extension StationHubTests {
    /// The station as a lobby, in a fresh hub (as after a restart).
    func lobbyHub() async throws -> StationHub {
        _ = try await store.updateParty(stationID: "s1", mode: .lobby, requestSettings: RequestSettings())
        return try await reloadedHub()
    }

    func reloadedHub() async throws -> StationHub {
        let loaded = try #require(try await store.loadStation(id: "s1"))
        return StationHub(loaded: loaded, context: context)
    }

    @Test func theLobbyElectsOnTheClockAndAnAcknowledgedVoteSurvivesARestart() async throws {
        let lobby = try await lobbyHub()
        let annListener = Listener()
        try await lobby.connect(
            annListener.id, queue: annListener.queue, since: nil, seat: Seat(personID: "ann", name: "Ann", role: .listener))
        var ann = annListener
        guard case .snapshot(let snapshot) = try #require(try await ann.next("snapshot")) else { return }
        let current = try #require(snapshot.timeline.current)
        guard case .party(let party) = try #require(try await ann.next("party")) else { return }
        let ballot = try #require(party.ballot)
        #expect(ballot.follows == current.id)
        #expect(ballot.candidates.allSatisfy { $0.votes == nil })  // listeners don't see counts by default
        let choice = try #require(ballot.candidates.last).track.id

        let ack = try await lobby.apply(
            CommandRequest(id: "v1", command: .ballotVote(ballotID: ballot.id, trackID: choice)),
            from: .connection(ann.id))
        #expect(!ack.duplicate)
        // Ann's standing came on joining (no vote yet), then after her vote.
        guard case .standing(let joined) = try #require(try await ann.next("standing")) else { return }
        #expect(joined.vote == nil)
        #expect(joined.ballotID == ballot.id)
        guard case .standing(let standing) = try #require(try await ann.next("standing")) else { return }
        #expect(standing.vote == choice)
        #expect(standing.weight == 1)

        // A restart (a fresh hub on what was saved) still counts the vote.
        let restarted = try await reloadedHub()
        let seen = try await restarted.partyView(showCounts: true)
        #expect(seen.ballot?.candidates.first { $0.track.id == choice }?.votes == 1)

        // The ballot closes on the clock; the winner starts when the song ends.
        manual.advance(by: .milliseconds(ballot.closesAt - clock.now()))
        var elected: EntryView?
        while elected == nil {
            guard case .update(let window) = try #require(try await ann.next("update")) else { return }
            elected = window.upNext.first { $0.source == .elected }
        }
        #expect(elected?.track.id == choice)
        #expect(elected?.start == current.expiration)
        #expect(elected?.why == "Voted in by 1 listener")
        await lobby.disconnect(ann.id)
    }
}
