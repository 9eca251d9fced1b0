import Testing
@testable import WavelengthCore

/// The room's level as events of the station machine.
extension PartyMachineTests {
    @Test func theRoomVotesTheLevelAndEveryoneHearsWhenItMoves() throws {
        var machine = try party(settings: RequestSettings(volumeVoting: true))
        // Three listeners and the host: 3 of 4 are needed (55 %).
        _ = try send(&machine, .volumeVote(up: false), id: "v1", from: 2)
        _ = try send(&machine, .volumeVote(up: false), id: "v2", from: 3)
        #expect(machine.party.lobby.volume.levelDb == 0)
        let moved = try send(&machine, .volumeVote(up: false), id: "v3", from: 4, at: t0 + 10)
        #expect(machine.party.lobby.volume.levelDb == -StationVolume.step)
        let sound = machine.party.sound
        #expect(sound.since == t0 + 10 + StationVolume.leadMillis)
        #expect(moved.actions.contains(.broadcast(.sound(sound), except: nil)))
        // The new level is saved with the vote that moved it.
        let save = try #require(moved.actions.compactMap { if case .save(let s) = $0 { s } else { nil } }.first)
        #expect(save.lobby?.volume?.levelDb == -StationVolume.step)
        // A resent vote is acknowledged once and moves nothing again.
        let again = try send(&machine, .volumeVote(up: false), id: "v3", from: 4)
        #expect(again.duplicate)
        #expect(machine.party.lobby.volume.levelDb == -StationVolume.step)
    }

    @Test func volumeVotesNeedTheHostsSwitchAndOnlyTheHostSetsTheLevel() throws {
        var machine = try party()
        #expect(throws: HubError.request(.volumeVotingOff)) {
            try send(&machine, .volumeVote(up: true), id: "v1", from: 2)
        }
        #expect(throws: HubError.forbidden(.arrangeRequests)) {
            try send(&machine, .setVolume(levelDb: 6), id: "v2", from: 2)
        }
        let set = try send(&machine, .setVolume(levelDb: -9), id: "v3", from: 1)
        #expect(machine.party.lobby.volume.levelDb == -9)
        #expect(machine.party.sound.reason == "Host set the level")
        #expect(set.actions.contains(.broadcast(.sound(machine.party.sound), except: nil)))
    }
}
