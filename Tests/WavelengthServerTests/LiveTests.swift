import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WavelengthWire
@testable import WavelengthServer

@Suite("Station WebSocket", .timeLimit(.minutes(5)))
struct LiveTests {
    @Test func aListenerWakesAQuietStationMidSong() async throws {
        // On a clock that stands still: the robot fills three songs of 3 s
        // ahead, and on a loaded machine (load 30, two suites at once) one
        // had ended by the time the snapshot was built, leaving two.
        let clock = ManualClock.startingNow()
        let server = try await TestServer.make(clock: clock.wall)
        let (station, _) = try server.firstStation()
        try await server.application().test(.live) { client in
            let quiet = try await client.execute(uri: "/api/stations/\(station)", method: .get).decode(StationView.self)
            #expect(!quiet.onAir)
            #expect(try await client.timeline(station).current == nil)

            let listener = LiveClient(port: client.port!, path: "/api/stations/\(station)/live")
            let snapshot = try await listener.snapshot()
            let current = try #require(snapshot.timeline.current)
            #expect(current.start <= snapshot.serverTime)  // joined a song already playing
            #expect(current.expiration > snapshot.serverTime)
            #expect(snapshot.timeline.positionMs == snapshot.serverTime - current.start)
            #expect(snapshot.timeline.upNext.count >= 3)  // the robot filled the horizon
            #expect(snapshot.listeners == 1)
            #expect(snapshot.station.onAir)

            listener.close()
            await listener.closed()
            // Going quiet is saved; poll the station until the hub has caught up.
            var view = try await client.execute(uri: "/api/stations/\(station)", method: .get).decode(StationView.self)
            while view.listeners > 0 {
                await Task.yield()
                view = try await client.execute(uri: "/api/stations/\(station)", method: .get).decode(StationView.self)
            }
            #expect(!view.onAir)
        }
    }

    @Test func twoClientsSeeTheSameRevisionAndEveryChange() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let owner = try await client.signUp()
            let station = owner.stationID
            let dj = LiveClient(port: client.port!, path: "/api/stations/\(station)/live", token: owner.token)
            _ = try await dj.snapshot()
            #expect(try await dj.access() == .owner)
            // The test library's songs last 3 s: on a loaded machine the one
            // the DJ saw may end before the listener joins (what plays follows
            // the clock, with no new revision), or before a skip naming it
            // arrives (refused as not current). Paused, the timeline holds
            // still, so both see the same song.
            try dj.send(.command(CommandRequest(id: "ws-0", command: .pause)))
            let paused = try await dj.ack("ws-0")
            let pausedView = try await dj.update(atLeast: paused.revision)
            let listener = LiveClient(port: client.port!, path: "/api/stations/\(station)/live")
            let listenerSnapshot = try await listener.snapshot()
            #expect(listenerSnapshot.revision == pausedView.revision)
            #expect(listenerSnapshot.timeline.current?.id == pausedView.current?.id)
            try await dj.listeners(2)

            let track = try await client.firstTrack(matching: "nandu")
            try dj.send(.command(CommandRequest(id: "ws-1", command: .queueNext(trackID: track.id))))
            let ack = try await dj.ack("ws-1")
            #expect(!ack.duplicate)
            let seenByListener = try await listener.update(atLeast: ack.revision)
            #expect(seenByListener.revision == ack.revision)
            #expect(seenByListener.upNext.first?.track.id == track.id)
            let seenByDJ = try await dj.update(atLeast: ack.revision)
            #expect(seenByDJ.upNext == seenByListener.upNext)

            // Skips reach both. The test library's songs last 3 s, so the
            // song seen may end before the skip arrives: then it is refused
            // as no longer playing, and the queued track comes on anyway.
            let playing = try #require(seenByDJ.current)
            try dj.send(.command(CommandRequest(id: "ws-2", command: .skip(entryID: playing.id))))
            do {
                let skipAck = try await dj.ack("ws-2")
                let afterSkip = try await listener.update(atLeast: skipAck.revision)
                #expect(afterSkip.current?.track.id == track.id)
            } catch let refused as LiveClient.Refused {
                #expect(["not_current", "already_played"].contains(refused.code), "\(refused)")
            }
            dj.close()
            listener.close()
        }
    }

    /// Protocol version 2 names the tracks every listener holds by id, so
    /// an update to a long Up Next carries the new entry's track only;
    /// version 1 still gets every track whole. Both see the same timeline,
    /// and so does a listener who joins between two updates.
    @Test func compactUpdatesNameHeldTracksByIdAndEveryoneSeesTheSameTimeline() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let owner = try await client.signUp()
            let station = owner.stationID
            let dj = LiveClient(port: client.port!, path: "/api/stations/\(station)/live?v=2", token: owner.token)
            _ = try await dj.snapshot()
            let old = LiveClient(port: client.port!, path: "/api/stations/\(station)/live?v=1")
            _ = try await old.snapshot()
            // Paused, the timeline holds still (the test songs last 3 s).
            try dj.send(.command(CommandRequest(id: "c-0", command: .pause)))
            _ = try await dj.update(atLeast: try await dj.ack("c-0").revision)
            let tracks = try await client.tracks()
            var late: LiveClient?
            for (n, track) in tracks.prefix(4).enumerated() {
                if n == 2 {
                    late = LiveClient(port: client.port!, path: "/api/stations/\(station)/live")
                    _ = try await late?.snapshot()
                }
                try dj.send(.command(CommandRequest(id: "c-\(n + 1)", command: .queueNext(trackID: track.id))))
                let revision = try await dj.ack("c-\(n + 1)").revision
                let seen = try await dj.update(atLeast: revision)
                #expect(try await old.update(atLeast: revision) == seen)
                if let late { #expect(try await late.update(atLeast: revision) == seen) }
                #expect(seen.upNext.contains { $0.track.id == track.id })
                #expect(seen.upNext.allSatisfy { !$0.track.title.isEmpty })
            }
            // The last update named the entry queued before it by id alone.
            let compact = try #require(await dj.updateTexts().last)
            let whole = try #require(await old.updateTexts().last)
            let earlier = try #require(tracks.prefix(4).dropLast().last)
            #expect(compact.contains(#""track":{"id":"\#(earlier.id)"}"#))
            #expect(!whole.contains(#""track":{"id":"\#(earlier.id)"}"#))
            #expect(compact.utf8.count * 2 < whole.utf8.count)
            for socket in [dj, old, late].compactMap({ $0 }) {
                #expect(await socket.unknownTracks().isEmpty)
                #expect(await socket.sequenceIsContiguous())
                socket.close()
            }
        }
    }

    @Test func aResentCommandAppliesOnce() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let owner = try await client.signUp()
            let station = owner.stationID
            let dj = LiveClient(port: client.port!, path: "/api/stations/\(station)/live", token: owner.token)
            _ = try await dj.snapshot()
            let track = try await client.firstTrack(matching: "cafe")
            let command = ClientMessage.command(CommandRequest(id: "once", command: .append(trackID: track.id)))
            try dj.send(command)
            let first = try await dj.ack("once")
            try dj.send(command)
            let second = try await dj.ack("once")
            #expect(second.duplicate)
            #expect(second.revision == first.revision)
            let window = try await client.timeline(station)
            #expect(window.revision == first.revision)
            #expect(window.upNext.filter { $0.track.id == track.id && $0.source == .dj }.count == 1)
            dj.close()
        }
    }

    @Test func aReconnectingClientCatchesUp() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let owner = try await client.signUp()
            let (station, key) = (owner.stationID, owner.token)
            let listener = LiveClient(port: client.port!, path: "/api/stations/\(station)/live")
            let snapshot = try await listener.snapshot()
            // Reconnecting with nothing missed: told it is current, no resend.
            // A short song of the test library may end meanwhile (the robot's
            // top-up is a change): then it is a snapshot of the newer
            // revision, and the next reconnect has nothing missed.
            var known = snapshot.revision
            var connections: [LiveClient] = []
            defer { connections.forEach { $0.close() } }
            while true {
                let current = LiveClient(port: client.port!, path: "/api/stations/\(station)/live?since=\(known)")
                connections.append(current)
                let first = try await current.next()
                if case .snapshot(let newer) = first, newer.revision > known, connections.count < 10 {
                    known = newer.revision
                    continue
                }
                guard case .resumed(let revision, _, let listeners) = first else {
                    Issue.record("expected resumed, got \(first)")
                    return
                }
                #expect(revision == known)
                #expect(listeners == 1 + connections.count)
                // Then, as on every connection, what this person may do here.
                #expect(try await current.next() == .access(role: .listener))
                break
            }

            // Something changes while a client is away.
            let track = try await client.firstTrack(matching: "cafe")
            let ack = try await client.command(station, key: key, id: "away", .queueNext(trackID: track.id))
                .decode(CommandAck.self)
            let behind = LiveClient(port: client.port!, path: "/api/stations/\(station)/live?since=\(snapshot.revision)")
            let caughtUp = try await behind.snapshot()
            #expect(caughtUp.revision == ack.revision)
            // Next up, or already on if the song before it ended meanwhile.
            let nextOrNow = [caughtUp.timeline.current?.track.id, caughtUp.timeline.upNext.first?.track.id]
            #expect(nextOrNow.contains(track.id))
            behind.close()
            listener.close()
        }
    }

    @Test func aVanishedClientStopsBeingCounted() async throws {
        // The interval must leave the answering listener time to answer on a
        // loaded machine: at load 20 a 1 s interval dropped it too.
        let server = try await TestServer.make(pingInterval: .seconds(4))
        let (station, _) = try server.firstStation()
        try await server.application().test(.live) { client in
            let listener = LiveClient(port: client.port!, path: "/api/stations/\(station)/live")
            _ = try await listener.snapshot()
            let silent = try await SilentSocket.connect(port: client.port!, path: "/api/stations/\(station)/live")
            try await listener.listeners(2)
            // The silent client never answers a ping, so the server drops it.
            try await listener.listeners(1)
            let view = try await client.execute(uri: "/api/stations/\(station)", method: .get).decode(StationView.self)
            #expect(view.listeners == 1)
            withExtendedLifetime(silent) {}
            listener.close()
        }
    }

    /// A client that floods the server and never reads fills its reply
    /// window, so the server stops reading from it; when it then vanishes
    /// (a reset), the write fails. The listener must still be let go: the
    /// session used to wait forever for a reader held by backpressure.
    @Test func aFloodingClientThatVanishesIsNotLeftCounted() async throws {
        let server = try await TestServer.make(pingInterval: .seconds(60))
        try await server.application().test(.live) { client in
            let owner = try await client.signUp()
            let station = owner.stationID
            let watcher = LiveClient(port: client.port!, path: "/api/stations/\(station)/live")
            _ = try await watcher.snapshot()
            let flood = try FloodSocket(port: client.port!, path: "/api/stations/\(station)/live", token: owner.token)
            try await watcher.listeners(2)
            let sent = flood.flood(#"{"type":"ping","nonce":"n"}"#, limit: 200_000)
            #expect(sent > 64)  // more than the reply window holds
            flood.reset()
            // Pings are off (60 s), so only the session ending lets it go.
            try await watcher.listeners(1)
            let view = try await client.execute(uri: "/api/stations/\(station)", method: .get).decode(StationView.self)
            #expect(view.listeners == 1)
            watcher.close()
        }
    }

    @Test func badMessagesGetErrorsAndChangeNothing() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let owner = try await client.signUp()
            let station = owner.stationID
            let dj = LiveClient(port: client.port!, path: "/api/stations/\(station)/live", token: owner.token)
            _ = try await dj.snapshot()
            // Held, so time passing (the robot's ticks) can't raise the
            // revision: only a command could, and none of these may apply.
            let held = try await client.command(station, key: owner.token, id: "hold", .pause).decode(CommandAck.self)
            let cases: [(String, String)] = [
                ("{not json", "bad_message"),
                (#"{"type":"dance"}"#, "unknown_type"),
                (#"{"type":"command","id":"x","command":{"op":"explode"}}"#, "bad_message"),
                (#"{"type":"command","command":{"op":"skip"}}"#, "bad_message"),
                (#"{"type":"command","id":"","command":{"op":"skip"}}"#, "invalid_command_id"),
                (#"{"type":"command","id":"r","command":{"op":"remove","entryID":"nope"}}"#, "unknown_entry"),
                (#"{"type":"command","id":"m","command":{"op":"move","entryID":"nope","toIndex":0}}"#, "unknown_entry"),
                (#"{"type":"ping","nonce":"\#(String(repeating: "n", count: 9000))"}"#, "too_large"),
            ]
            for (text, code) in cases {
                dj.sendRaw(text)
                let error = try await dj.error()
                #expect(error.code == code, "\(text.prefix(60))")
                #expect(!error.message.isEmpty)
            }
            dj.sendBinary([1, 2, 3])
            #expect(try await dj.error().code == "bad_message")
            // Still connected and answering.
            try dj.send(.ping(nonce: "still-here"))
            let pong = try await dj.next { $0.type == "pong" }
            guard case .pong(let nonce, let serverTime, let received, let sent) = pong else { return }
            #expect(nonce == "still-here")
            #expect(received <= sent)
            #expect(abs(Double(serverTime) - sent) < 1)
            #expect(try await client.timeline(station).revision == held.revision)

            // A listener (anonymous, or signed in but not the owner) cannot command.
            let listener = LiveClient(port: client.port!, path: "/api/stations/\(station)/live")
            _ = try await listener.snapshot()
            try listener.send(.command(CommandRequest(id: "sneaky", command: .skip(entryID: nil))))
            #expect(try await listener.error().code == "forbidden")
            let someone = try await client.signUp()
            let signedIn = LiveClient(port: client.port!, path: "/api/stations/\(station)/live", token: someone.token)
            _ = try await signedIn.snapshot()
            #expect(try await signedIn.access() == .listener)
            try signedIn.send(.command(CommandRequest(id: "sneaky2", command: .pause)))
            let refusal = try await signedIn.error()
            #expect(refusal.code == "forbidden")
            #expect(refusal.id == "sneaky2")
            #expect(try await client.timeline(station).revision == held.revision)
            #expect(await dj.sequenceIsContiguous())
            dj.close()
            listener.close()
            signedIn.close()
        }
    }

    @Test func everyMessageIsNumberedAndResyncSendsASnapshot() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let owner = try await client.signUp()
            let dj = LiveClient(port: client.port!, path: "/api/stations/\(owner.stationID)/live?v=1", token: owner.token)
            let first = try await dj.snapshot()
            try dj.send(.resync)
            let second = try await dj.snapshot()
            // A song may end meanwhile on a slow machine, and the robot's top-up
            // raise the revision and send an update; nothing else may differ.
            #expect(second.revision >= first.revision)
            for i in 0..<5 { try dj.send(.ping(nonce: "n\(i)")) }
            for i in 0..<5 { _ = try await dj.next { if case .pong(let nonce, _, _, _) = $0 { nonce == "n\(i)" } else { false } } }
            // snapshot, access (right after the first message), the chat,
            // role, dj, snapshot, and five pongs, numbered with no gaps.
            let seen = await dj.seenSequence()
            #expect(seen == Array(1...UInt64(seen.count)))
            #expect(
                await dj.seenTypes().filter { $0 != "update" }
                    == ["snapshot", "access", "chatRoom", "role", "dj", "snapshot"] + Array(repeating: "pong", count: 5))
            #expect(try await dj.access() == .owner)
            dj.close()
        }
    }

    /// Live connections keep no task, so the HTTP server's graceful shutdown
    /// does not wait for them: the server closes each with 1001 itself.
    @Test func aStoppingServerSaysGoodbyeToEveryListener() async throws {
        let server = try await TestServer.make()
        let (station, _) = try server.firstStation()
        try await server.application().test(.live) { client in
            let listener = LiveClient(port: client.port!, path: "/api/stations/\(station)/live")
            _ = try await listener.snapshot()
            #expect(server.services.liveSockets.count == 1)
            server.services.liveSockets.closeAll()
            await listener.closed()
            let reason = await listener.closeReason()
            #expect(reason?.hasPrefix("goingAway") == true, "\(reason ?? "no reason")")
        }
    }

    @Test func anUnknownProtocolVersionIsRefusedClearly() async throws {
        let server = try await TestServer.make()
        let (station, _) = try server.firstStation()
        try await server.application().test(.live) { client in
            let future = LiveClient(port: client.port!, path: "/api/stations/\(station)/live?v=99")
            let error = try await future.error()
            #expect(error.code == "unsupported_version")
            await future.closed()
            // It was never counted as a listener.
            let view = try await client.execute(uri: "/api/stations/\(station)", method: .get).decode(StationView.self)
            #expect(view.listeners == 0)
        }
    }

    @Test func unknownStationsAreRefusedBeforeUpgrading() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let response = try await client.execute(uri: "/api/stations/nope/live", method: .get)
            #expect(response.status == .notFound)
        }
    }
}

@Suite("Song pool", .timeLimit(.minutes(5)))
struct SongPoolTests {
    @Test func theRobotPlaysFromTheChosenPool() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let owner = try await client.signUp()
            let (station, key) = (owner.stationID, owner.token)
            let track = try await client.firstTrack(matching: "nandu")
            let body = ByteBuffer(data: try JSONEncoder().encode(StationPool(trackIDs: [track.id])))
            // Only the owner (or a co-DJ) chooses the pool: nobody at all is
            // asked to sign in, a listener is refused.
            let anonymous = try await client.execute(uri: "/api/stations/\(station)/pool", method: .put, body: body)
            #expect(anonymous.status == .unauthorized)
            #expect(anonymous.errorCode == "sign_in_required")
            let stranger = try await client.signUp()
            let refused = try await client.execute(
                uri: "/api/stations/\(station)/pool", method: .put, headers: [.authorization: "Bearer \(stranger.token)"],
                body: body)
            #expect(refused.status == .forbidden)
            #expect(refused.errorCode == "forbidden")
            let unknown = try await client.execute(
                uri: "/api/stations/\(station)/pool", method: .put, headers: [.authorization: "Bearer \(key)", .contentType: "application/json"],
                body: ByteBuffer(string: #"{"trackIDs":["nope"]}"#))
            #expect(unknown.status == .notFound)
            let tooMany = try JSONEncoder().encode(StationPool(trackIDs: (0...500).map { "t\($0)" }))
            let big = try await client.execute(
                uri: "/api/stations/\(station)/pool", method: .put,
                headers: [.authorization: "Bearer \(key)", .contentType: "application/json"], body: ByteBuffer(data: tooMany))
            #expect(big.status == .badRequest || big.status == .contentTooLarge)
            let set = try await client.execute(
                uri: "/api/stations/\(station)/pool", method: .put,
                headers: [.authorization: "Bearer \(key)", .contentType: "application/json"], body: body)
            #expect(try set.decode(StationPool.self).trackIDs == [track.id])

            let listener = LiveClient(port: client.port!, path: "/api/stations/\(station)/live")
            let snapshot = try await listener.snapshot()
            let robotPicks = ([snapshot.timeline.current].compactMap { $0 } + snapshot.timeline.upNext).filter { $0.source == .robot }
            #expect(!robotPicks.isEmpty)
            #expect(robotPicks.allSatisfy { $0.track.id == track.id })
            listener.close()

            let cleared = try await client.execute(
                uri: "/api/stations/\(station)/pool", method: .put,
                headers: [.authorization: "Bearer \(key)", .contentType: "application/json"],
                body: ByteBuffer(string: #"{"trackIDs":[]}"#))
            #expect(try cleared.decode(StationPool.self).trackIDs.isEmpty)
        }
    }
}
