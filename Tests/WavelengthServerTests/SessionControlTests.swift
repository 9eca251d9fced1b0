import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WavelengthWire

@Suite("Together: pause, resume, seek and the DJ role", .timeLimit(.minutes(5)))
struct SessionControlRouteTests {
    @Test func pauseFreezesEveryoneAndResumeShiftsTheTimeline() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let owner = try await client.signUp()
            let (station, key) = (owner.stationID, owner.token)
            let listener = LiveClient(port: client.port!, path: "/api/stations/\(station)/live")
            let snapshot = try await listener.snapshot()
            let onAir = [snapshot.timeline.current].compactMap { $0 } + snapshot.timeline.upNext

            let pause = try await client.command(station, key: key, id: "p", .pause).decode(CommandAck.self)
            let paused = try await listener.update(atLeast: pause.revision)
            let pausedAt = try #require(paused.pausedAt)
            // What played at the pause: on a loaded machine the snapshot's
            // current entry may have ended before the pause arrived.
            let playing = try #require(onAir.first { $0.start <= pausedAt && pausedAt < $0.expiration })
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
            let soughtEntry = try #require(sought.current)
            #expect(soughtEntry.offsetMs == 1_000)
            // The seek moved the entry that played at that instant (the resumed
            // track, unless it ended first on a loaded machine).
            let seekAt = soughtEntry.start  // the rest of a sought entry starts at the seek
            let seekedFrom = [current] + resumed.upNext
            #expect(soughtEntry.track.id == seekedFrom.first { $0.start <= seekAt && seekAt < $0.expiration }?.track.id)
            let tooFar = try await client.command(station, key: key, id: "s2", .seek(positionMs: 10_000_000))
            #expect(tooFar.status == .badRequest)
            #expect(tooFar.errorCode == "position_out_of_range")
            listener.close()
        }
    }

    @Test func aCoDJIsPromotedWhenTheDJStaysAwayAndTheOwnerTakesBack() async throws {
        let server = try await TestServer.make(djGracePeriod: .milliseconds(300))
        try await server.application().test(.live) { client in
            let host = try await client.signUp()
            let friend = try await client.signUp()
            let station = host.stationID
            let owner = LiveClient(port: client.port!, path: "/api/stations/\(station)/live", token: host.token)
            _ = try await owner.snapshot()
            _ = try await owner.next { if case .role("dj", 1) = $0 { true } else { false } }
            let member = LiveClient(port: client.port!, path: "/api/stations/\(station)/live", token: friend.token)
            _ = try await member.snapshot()
            #expect(try await member.access() == .listener)
            _ = try await member.next { if case .role("listener", 1) = $0 { true } else { false } }
            // A plain listener cannot control playback.
            try member.send(.command(CommandRequest(id: "m0", command: .pause)))
            #expect(try await member.error().code == "forbidden")

            // The owner names the member a co-DJ; their connection is told at once.
            try await client.makeCoDJ(friend, on: station, by: host)
            #expect(try await member.access() == .codj)

            owner.close()
            _ = try await member.next { if case .dj(1, false, _) = $0 { true } else { false } }
            // After the grace period the co-DJ is promoted, and can pause.
            _ = try await member.next { if case .role("dj", 2) = $0 { true } else { false } }
            // Everyone is told who has the booth now, by name.
            let name = friend.person.displayName
            _ = try await member.next { if case .dj(2, true, name) = $0 { true } else { false } }
            try member.send(.command(CommandRequest(id: "m1", command: .pause, epoch: 2)))
            #expect(try await member.ack("m1").duplicate == false)

            // The owner comes back and takes the role; the member is told.
            let back = LiveClient(port: client.port!, path: "/api/stations/\(station)/live", token: host.token)
            _ = try await back.next { if case .role("dj", 3) = $0 { true } else { false } }
            _ = try await member.next { if case .role("listener", 3) = $0 { true } else { false } }
            // The member is still a co-DJ, but a command stamped with the
            // epoch it held the booth in is refused: the role moved on.
            try member.send(.command(CommandRequest(id: "m2", command: .resume, epoch: 2)))
            let refusal = try await member.error()
            #expect(refusal.code == "stale_epoch")
            #expect(refusal.id == "m2")
            // A command stamped with an old epoch is refused even from the owner.
            try back.send(.command(CommandRequest(id: "o1", command: .resume, epoch: 2)))
            #expect(try await back.error().code == "stale_epoch")
            try back.send(.command(CommandRequest(id: "o2", command: .resume, epoch: 3)))
            #expect(try await back.ack("o2").duplicate == false)
            member.close()
            back.close()
        }
    }

    @Test func aPlainListenerIsNeverPromoted() async throws {
        let server = try await TestServer.make(djGracePeriod: .milliseconds(200))
        try await server.application().test(.live) { client in
            let host = try await client.signUp()
            let fan = try await client.signUp()
            let friend = try await client.signUp()
            let station = host.stationID
            try await client.makeCoDJ(friend, on: station, by: host)
            let owner = LiveClient(port: client.port!, path: "/api/stations/\(station)/live", token: host.token)
            _ = try await owner.next { if case .role("dj", 1) = $0 { true } else { false } }
            // The plain listener has been connected longest (after the owner)…
            let listener = LiveClient(port: client.port!, path: "/api/stations/\(station)/live", token: fan.token)
            _ = try await listener.next { if case .role("listener", 1) = $0 { true } else { false } }
            // …and the co-DJ came later, into a booth the owner holds.
            let codj = LiveClient(port: client.port!, path: "/api/stations/\(station)/live", token: friend.token)
            #expect(try await codj.access() == .codj)
            _ = try await codj.next { if case .role("listener", 1) = $0 { true } else { false } }

            owner.close()
            _ = try await listener.next { if case .dj(1, false, _) = $0 { true } else { false } }
            // The role goes to the co-DJ, never to the longer-connected listener.
            _ = try await codj.next { if case .role("dj", 2) = $0 { true } else { false } }
            _ = try await listener.next { if case .dj(2, true, _) = $0 { true } else { false } }
            #expect(await !listener.hasPending { if case .role("dj", _) = $0 { true } else { false } })
            try listener.send(.command(CommandRequest(id: "l1", command: .pause, epoch: 2)))
            #expect(try await listener.error().code == "forbidden")
            listener.close()
            codj.close()
        }
    }

    @Test func withoutACoDJTheBoothStaysEmptyUntilOneComes() async throws {
        let grace = Duration.milliseconds(200)
        let server = try await TestServer.make(djGracePeriod: grace)
        try await server.application().test(.live) { client in
            let host = try await client.signUp()
            let fan = try await client.signUp()
            let friend = try await client.signUp()
            let station = host.stationID
            let owner = LiveClient(port: client.port!, path: "/api/stations/\(station)/live", token: host.token)
            _ = try await owner.next { if case .role("dj", 1) = $0 { true } else { false } }
            let listener = LiveClient(port: client.port!, path: "/api/stations/\(station)/live", token: fan.token)
            _ = try await listener.next { if case .role("listener", 1) = $0 { true } else { false } }

            owner.close()
            _ = try await listener.next { if case .dj(1, false, _) = $0 { true } else { false } }
            // Nothing is sent when a grace period ends with nobody to promote,
            // so there is no event to wait for: give it the grace period
            // several times over.
            try await Task.sleep(for: grace * 5)
            #expect(await !listener.hasPending { if case .role("dj", _) = $0 { true } else { false } })
            #expect(await !listener.hasPending { if case .dj(_, true, _) = $0 { true } else { false } })
            try listener.send(.command(CommandRequest(id: "l1", command: .pause)))
            #expect(try await listener.error().code == "forbidden")

            // A co-DJ who tunes in now finds the booth empty and takes it.
            try await client.makeCoDJ(friend, on: station, by: host)
            let codj = LiveClient(port: client.port!, path: "/api/stations/\(station)/live", token: friend.token)
            #expect(try await codj.access() == .codj)
            let role = try await codj.role()
            #expect(role.role == "dj", "a co-DJ joining a station with nobody in the DJ booth was not given it")
            #expect(role.epoch == 2)
            listener.close()
            codj.close()
        }
    }
}

@Suite("Commit lead", .timeLimit(.minutes(5)))
struct CommitLeadTests {
    @Test func aSkipTakesEffectAfterTheLeadForEveryone() async throws {
        // The server's clock stands still, so the song skipped is still on
        // (for the lead) however long a loaded machine takes to say so: with
        // the wall's clock, 400 ms can pass before the update is made.
        let frozen = ManualClock.startingNow()
        let server = try await TestServer.make(commitLead: .milliseconds(400), clock: frozen.wall)
        try await server.application().test(.live) { client in
            let owner = try await client.signUp()
            let (station, key) = (owner.stationID, owner.token)
            let listener = LiveClient(port: client.port!, path: "/api/stations/\(station)/live")
            _ = try await listener.snapshot()
            let playing = try #require(try await client.timeline(station).current)
            let response = try await client.command(station, key: key, id: "skip", .skip(entryID: playing.id))
            let ack = try response.decode(CommandAck.self)
            let window = try await listener.update(atLeast: ack.revision)
            let current = try #require(window.current)
            #expect(current.id == playing.id)  // still on, for the lead
            #expect(current.expiration - window.serverTime == 400)
            #expect(window.upNext.first?.start == current.expiration)
            listener.close()
        }
    }
}
