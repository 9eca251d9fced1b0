import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WavelengthWire

@Suite("Together: pause, resume, seek and the DJ role", .timeLimit(.minutes(2)))
struct SessionControlRouteTests {
    @Test func pauseFreezesEveryoneAndResumeShiftsTheTimeline() async throws {
        let server = try await TestServer.make()
        let (station, key) = try server.firstStation()
        try await server.application().test(.live) { client in
            let listener = LiveClient(port: client.port!, path: "/api/stations/\(station)/live")
            let snapshot = try await listener.snapshot()
            let playing = try #require(snapshot.timeline.current)

            let pause = try await client.command(station, key: key, id: "p", .pause).decode(CommandAck.self)
            let paused = try await listener.update(atLeast: pause.revision)
            let pausedAt = try #require(paused.pausedAt)
            #expect(paused.current?.track.id == playing.track.id)
            #expect(paused.current?.start == pausedAt)
            #expect(paused.current?.offsetMs == pausedAt - playing.start + playing.offsetMs)
            #expect(try await client.command(station, key: key, id: "p2", .pause).status == .conflict)

            let resume = try await client.command(station, key: key, id: "r", .resume).decode(CommandAck.self)
            let resumed = try await listener.update(atLeast: resume.revision)
            #expect(resumed.pausedAt == nil)
            let current = try #require(resumed.current)
            #expect(current.track.id == playing.track.id)
            #expect(current.offsetMs == paused.current!.offsetMs)
            #expect(current.start >= pausedAt)
            #expect(resumed.upNext.first?.start == current.expiration)

            let seek = try await client.command(station, key: key, id: "s", .seek(positionMs: 1_000)).decode(CommandAck.self)
            let sought = try await listener.update(atLeast: seek.revision)
            #expect(sought.current?.offsetMs == 1_000)
            #expect(sought.current?.track.id == playing.track.id)
            let tooFar = try await client.command(station, key: key, id: "s2", .seek(positionMs: 10_000_000))
            #expect(tooFar.status == .badRequest)
            #expect(tooFar.errorCode == "position_out_of_range")
            listener.close()
        }
    }

    @Test func aListenerIsPromotedWhenTheDJStaysAwayAndTheOwnerTakesBack() async throws {
        let server = try await TestServer.make(djGracePeriod: .milliseconds(300))
        let (station, key) = try server.firstStation()
        try await server.application().test(.live) { client in
            let owner = LiveClient(port: client.port!, path: "/api/stations/\(station)/live?key=\(key)")
            _ = try await owner.snapshot()
            _ = try await owner.next { if case .role("dj", 1) = $0 { true } else { false } }
            let member = LiveClient(port: client.port!, path: "/api/stations/\(station)/live")
            _ = try await member.snapshot()
            _ = try await member.next { if case .role("listener", 1) = $0 { true } else { false } }
            // A plain listener cannot control playback.
            try member.send(.command(CommandRequest(id: "m0", command: .pause)))
            #expect(try await member.error().code == "forbidden")

            owner.close()
            _ = try await member.next { if case .dj(1, false) = $0 { true } else { false } }
            // After the grace period the member is promoted, and can pause.
            _ = try await member.next { if case .role("dj", 2) = $0 { true } else { false } }
            try member.send(.command(CommandRequest(id: "m1", command: .pause, epoch: 2)))
            #expect(try await member.ack("m1").duplicate == false)

            // The owner comes back and takes the role; the member is told.
            let back = LiveClient(port: client.port!, path: "/api/stations/\(station)/live?key=\(key)")
            _ = try await back.next { if case .role("dj", 3) = $0 { true } else { false } }
            _ = try await member.next { if case .role("listener", 3) = $0 { true } else { false } }
            try member.send(.command(CommandRequest(id: "m2", command: .resume, epoch: 2)))
            #expect(try await member.error().code == "forbidden")
            // A command stamped with an old epoch is refused even from the owner.
            try back.send(.command(CommandRequest(id: "o1", command: .resume, epoch: 2)))
            #expect(try await back.error().code == "stale_epoch")
            try back.send(.command(CommandRequest(id: "o2", command: .resume, epoch: 3)))
            #expect(try await back.ack("o2").duplicate == false)
            member.close()
            back.close()
        }
    }
}

@Suite("Commit lead", .timeLimit(.minutes(1)))
struct CommitLeadTests {
    @Test func aSkipTakesEffectAfterTheLeadForEveryone() async throws {
        let server = try await TestServer.make(commitLead: .milliseconds(400))
        let (station, key) = try server.firstStation()
        try await server.application().test(.live) { client in
            let listener = LiveClient(port: client.port!, path: "/api/stations/\(station)/live")
            let snapshot = try await listener.snapshot()
            let playing = try #require(snapshot.timeline.current)
            let ack = try await client.command(station, key: key, id: "skip", .skip(entryID: playing.id)).decode(CommandAck.self)
            let window = try await listener.update(atLeast: ack.revision)
            let current = try #require(window.current)
            #expect(current.id == playing.id)  // still on, briefly
            #expect(current.expiration - window.serverTime <= 400)
            #expect(current.expiration - window.serverTime > 0)
            #expect(window.upNext.first?.start == current.expiration)
            listener.close()
        }
    }
}
