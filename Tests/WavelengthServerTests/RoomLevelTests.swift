import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WavelengthCore
import WavelengthWire

/// The room's level over the live WebSocket: the host lets the room vote
/// it, two guests vote it down, everyone gets the new level with the
/// instant it takes effect, and the level survives a restart.
@Suite("The room's level", .timeLimit(.minutes(5)))
struct RoomLevelTests {
    @Test func guestsVoteTheLevelDownEveryoneHearsItAndItSurvivesARestart() async throws {
        let data = NSTemporaryDirectory() + "wavelength-test-\(UUID().uuidString)"
        let first = try await TestServer.make(dataDirectory: data)
        let station = try await first.application().test(.live) { client in
            let host = try await client.signUp()
            let station = host.stationID
            let path = "/api/stations/\(station)/live"
            let ann = try await client.guest("Ann")
            let bo = try await client.guest("Bo")

            // Volume voting is off by default: refused with a code.
            _ = try await client.send(
                "/api/stations/\(station)/party", .patch, as: host, body: PartySettingsPatch(mode: .requests))
            let annSocket = LiveClient(port: client.port!, path: path, token: ann.token)
            let snapshot = try await Self.snapshot(annSocket)
            #expect(snapshot.station.sound == SoundView(targetLufs: -14, levelDb: 0, since: 0, reason: nil))
            try annSocket.send(.command(CommandRequest(id: "off", command: .volumeVote(up: false))))
            #expect(try await annSocket.error().code == "volume_voting_off")

            // A gym: the preset turns volume voting on, and a target comes with it.
            let gym = try await client.send(
                "/api/stations/\(station)/party", .patch, as: host,
                body: PartySettingsPatch(kind: .gym, loudnessTarget: -16))
            #expect(gym.status == .ok)
            let settings = try gym.decode(PartyView.self).settings
            #expect(settings.kind == .gym && settings.volumeVoting && !settings.chat && settings.loudnessTarget == -16)
            let bad = try await client.send(
                "/api/stations/\(station)/party", .patch, as: host, body: PartySettingsPatch(loudnessTarget: -40))
            #expect(bad.status == .badRequest)

            let boSocket = LiveClient(port: client.port!, path: path, token: bo.token)
            _ = try await boSocket.next { $0.type == "snapshot" }
            // Ann and Bo are the two listening: both are needed.
            try annSocket.send(.command(CommandRequest(id: "a", command: .volumeVote(up: false))))
            _ = try await annSocket.ack("a")
            try boSocket.send(.command(CommandRequest(id: "b", command: .volumeVote(up: false))))
            let moved = try await boSocket.ack("b")
            for socket in [annSocket, boSocket] {
                let message = try await socket.next(where: { $0.type == "sound" })
                guard case .sound(let sound) = message else { throw LiveClient.ClosedError() }
                #expect(sound.levelDb == -StationVolume.step)
                #expect(sound.targetLufs == -16)
                #expect(sound.reason == "The room voted it quieter")
                #expect(sound.since > 0)
            }
            #expect(moved.revision > 0)
            // The room's vote on the level shows in the party, for everyone.
            let party = try await client.send("/api/stations/\(station)/party", .get, as: ann).decode(PartyView.self)
            #expect(party.volume?.levelDb == -StationVolume.step)
            #expect(party.volume?.up == 0 && party.volume?.down == 0)
            // A listener may not set the level outright.
            try annSocket.send(.command(CommandRequest(id: "set", command: .setVolume(levelDb: 6))))
            #expect(try await annSocket.error().code == "forbidden")
            return station
        }
        let second = try await TestServer.make(dataDirectory: data)
        try await second.application().test(.live) { client in
            let listener = LiveClient(port: client.port!, path: "/api/stations/\(station)/live", token: nil)
            let snapshot = try await Self.snapshot(listener)
            #expect(snapshot.station.sound?.levelDb == -StationVolume.step)
            #expect(snapshot.station.sound?.targetLufs == -16)
        }
    }

    static func snapshot(_ socket: LiveClient) async throws -> ServerMessage.Snapshot {
        guard case .snapshot(let snapshot) = try await socket.next(where: { $0.type == "snapshot" }) else {
            throw LiveClient.ClosedError()
        }
        return snapshot
    }
}
