import Foundation
import Testing
@testable import WavelengthCore

/// The room's level: votes move it a step when enough of the people
/// listening agree, the host sets it outright, and it stays in range.
@Suite("Station volume")
struct StationVolumeTests {
    let room: Set<String> = ["ann", "bo", "cy"]

    @Test func twoOfThreeMoveTheLevelAStepAndTheVotesStartAfresh() {
        var volume = StationVolume()
        let moved1 = volume.vote(.up, by: "ann", listening: room, at: 1000)
        #expect(!moved1)
        #expect(volume.levelDb == 0)
        let moved2 = volume.vote(.up, by: "bo", listening: room, at: 2000)
        #expect(moved2)
        #expect(volume.levelDb == StationVolume.step)
        #expect(volume.since == 2000 + StationVolume.leadMillis)
        #expect(volume.reason == "The room voted it louder")
        #expect(volume.votes.isEmpty)
        // The next round needs its own votes.
        let moved3 = volume.vote(.down, by: "cy", listening: room, at: 3000)
        #expect(!moved3)
        #expect(volume.levelDb == StationVolume.step)
    }

    @Test func aSecondVoteChangesTheFirstAndATakenBackVoteCountsForNothing() {
        var volume = StationVolume()
        _ = volume.vote(.up, by: "ann", listening: room, at: 1000)
        _ = volume.vote(.down, by: "ann", listening: room, at: 1001)
        #expect(volume.count(.up, listening: room) == 0)
        #expect(volume.count(.down, listening: room) == 1)
        _ = volume.vote(nil, by: "ann", listening: room, at: 1002)
        #expect(volume.count(.down, listening: room) == 0)
        #expect(volume.levelDb == 0)
    }

    @Test func votesOfPeopleWhoLeftDontCount() {
        var volume = StationVolume()
        _ = volume.vote(.down, by: "ann", listening: room, at: 1000)
        // Ann left; Bo alone is 1 of the 2 needed among Bo and Cy.
        let moved4 = volume.vote(.down, by: "bo", listening: ["bo", "cy"], at: 2000)
        #expect(!moved4)
        #expect(volume.levelDb == 0)
        #expect(volume.votes.keys.sorted() == ["bo"])
    }

    @Test func theLevelStaysInRangeAndTheHostSetsIt() {
        var volume = StationVolume()
        let moved5 = volume.set(100, at: 5000, reason: "Host set the level")
        #expect(moved5)
        #expect(volume.levelDb == StationVolume.range.upperBound)
        #expect(!volume.canMove(.up))
        // A vote past the top moves nothing.
        _ = volume.vote(.up, by: "ann", listening: ["ann"], at: 6000)
        #expect(volume.levelDb == StationVolume.range.upperBound)
        let moved6 = volume.set(-100, at: 7000, reason: "Host set the level")
        #expect(moved6)
        #expect(volume.levelDb == StationVolume.range.lowerBound)
        let moved7 = volume.set(-100, at: 8000, reason: "again")
        #expect(!moved7)
    }

    @Test func aLobbyTypeIsAPresetAndOldSettingsReadAsDefaults() throws {
        let gym = LobbyKind.gym.preset(RequestSettings(loudnessTarget: -18))
        #expect(gym.kind == .gym && !gym.chat && !gym.lyrics && gym.volumeVoting)
        #expect(gym.loudnessTarget == -18)
        #expect(throws: RequestError.self) { try RequestSettings(loudnessTarget: -30).validated() }
        // Settings saved before these fields existed.
        let old = #"{"open":true,"poolOnly":false,"maxPendingPerPerson":2,"noRepeatWithin":5,"showVoteCounts":true,"skip":{"kind":"automatic"}}"#
        let decoded = try JSONDecoder().decode(RequestSettings.self, from: Data(old.utf8))
        #expect(decoded.maxPendingPerPerson == 2 && decoded.maxTrackMillis == nil && decoded.showVoteCounts)
        #expect(decoded.kind == .party && decoded.chat && decoded.lyrics && !decoded.volumeVoting)
        #expect(decoded.loudnessTarget == Loudness.defaultTarget)
        let again = try JSONDecoder().decode(RequestSettings.self, from: JSONEncoder().encode(gym))
        #expect(again == gym)
    }
}
