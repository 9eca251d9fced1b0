import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WavelengthClient
import WavelengthCore
import WavelengthServer
import WavelengthWire

/// The SDK at a party: it hears the queue, requests and votes with commands,
/// and learns its own votes.
@Suite("Client SDK at a party", .timeLimit(.minutes(5)))
struct PartyClientTests {
    @Test func aListenerRequestsAndVotesThroughTheSDK() async throws {
        let server = try await LiveServer.make()
        try await buildApplication(server.services).test(.live) { client in
            let host = try await client.signUp("Host")
            let guest = try await client.signUp("Ann")
            let patch = try JSONEncoder().encode(PartySettingsPatch(mode: .requests))
            let opened = try await client.execute(
                uri: "/api/stations/\(host.stationID)/party", method: .patch,
                headers: [.authorization: "Bearer \(host.token)", .contentType: "application/json"],
                body: ByteBuffer(bytes: patch))
            #expect(opened.status == .ok)

            let sdk = StationClient(
                configuration: ClientConfiguration(serverURL: "http://127.0.0.1:\(client.port!)", as: guest, station: host.stationID))
            var events = sdk.events.makeAsyncIterator()
            await sdk.start()
            guard case .snapshot(let snapshot) = try await next(&events, where: { if case .snapshot = $0 { true } else { false } })
            else { return }
            guard case .party(let party) = try await next(&events, where: { if case .party = $0 { true } else { false } })
            else { return }
            #expect(party.mode == .requests)
            #expect(party.myVotes == [:])

            // Two songs not on the timeline (none of them can come on the air
            // before they are asked for): the first is lined up, the second waits.
            let timeline = snapshot.timeline
            let playing = Set(
                [timeline.current?.track.id].compactMap { $0 } + (timeline.upNext + timeline.history).map(\.track.id))
            let library = try await client.execute(uri: "/api/library/tracks?limit=50", method: .get)
            let tracks = try JSONDecoder().decode([TrackSummary].self, from: Data(buffer: library.body))
                .filter { !playing.contains($0.id) }
            _ = try await sdk.send(.request(trackID: tracks[0].id))
            _ = try await sdk.send(.request(trackID: tracks[1].id))
            // The first stays in the list, lined up and the guest's, until it starts.
            guard case .party(let waiting) = try await next(&events, where: {
                if case .party(let party) = $0 { party.requests.count == 2 } else { false }
            }) else { return }
            #expect(waiting.requests.first?.linedUp == true)
            #expect(waiting.requests.first?.track.id == tracks[0].id)
            let request = try #require(waiting.requests.last)
            #expect(!request.linedUp)
            #expect(request.track.id == tracks[1].id)
            #expect(request.requesterID == guest.id)

            _ = try await sdk.send(.vote(requestID: request.id, vote: .down))
            _ = try await next(&events) { if case .votes(let votes) = $0 { votes[request.id] == .down } else { false } }
            #expect(await sdk.model.myVotes[request.id] == .down)
            await #expect(throws: ClientError.refused(code: "unknown_request", message: RequestError.unknownRequest.description)) {
                try await sdk.send(.vote(requestID: "gone", vote: .up))
            }
            await sdk.stop()
        }
    }

    /// The host turns the room down; the SDK's player plays every track at
    /// the new gain from the instant the server named.
    @Test func thePlayerFollowsTheStationsLevel() async throws {
        let server = try await LiveServer.make()
        try await buildApplication(server.services).test(.live) { client in
            let host = try await client.signUp("Host")
            let patch = try JSONEncoder().encode(PartySettingsPatch(mode: .requests))
            _ = try await client.execute(
                uri: "/api/stations/\(host.stationID)/party", method: .patch,
                headers: [.authorization: "Bearer \(host.token)", .contentType: "application/json"],
                body: ByteBuffer(bytes: patch))
            let sdk = StationClient(
                configuration: ClientConfiguration(serverURL: "http://127.0.0.1:\(client.port!)", stationID: host.stationID))
            var events = sdk.events.makeAsyncIterator()
            await sdk.start()
            _ = try await next(&events) { if case .clock = $0 { true } else { false } }
            let output = SilentAudioOutput()
            let player = StationPlayer(client: sdk, output: output)
            await player.step()
            let playing = try #require(await player.status.entry)
            #expect(await output.gainDb == SoundView.standard.gainDb(for: playing.track))

            let body = try JSONEncoder().encode(CommandRequest(id: "quiet", command: .setVolume(levelDb: -6)))
            let set = try await client.execute(
                uri: "/api/stations/\(host.stationID)/commands", method: .post,
                headers: [.authorization: "Bearer \(host.token)", .contentType: "application/json"],
                body: ByteBuffer(bytes: body))
            #expect(set.status == .ok)
            guard case .sound(let sound) = try await next(&events, where: { if case .sound = $0 { true } else { false } })
            else { return }
            #expect(sound.levelDb == -6)
            #expect(await sdk.model.sound == sound)
            // The new level counts from its instant: wait for it on the server's clock.
            while let now = await sdk.serverNow(), now < Double(sound.since) {
                try await Task.sleep(for: .milliseconds(max(1, Int(Double(sound.since) - now))))
            }
            await player.step()
            let entry = try #require(await player.status.entry)
            #expect(await output.gainDb == sound.gainDb(for: entry.track))
            #expect(await player.status.gainDb == sound.gainDb(for: entry.track))
            #expect(sound.gainDb(for: entry.track) < SoundView.standard.gainDb(for: entry.track))
            await sdk.stop()
        }
    }
}
