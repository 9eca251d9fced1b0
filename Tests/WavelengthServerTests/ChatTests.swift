import AsyncHTTPClient
import Foundation
import HummingbirdTesting
import Testing
import WavelengthCore
import WavelengthWire

@testable import WavelengthServer

/// The station's chat and reactions over real WebSockets: kept before they
/// are sent, the newest on joining, bad input refused with a reason, and
/// nothing acknowledged lost to a kill -9.
@Suite("The room: chat and reactions", .timeLimit(.minutes(5)))
struct ChatTests {
    static func join(_ client: some TestClientProtocol, _ station: String, as account: TestAccount?) async throws
        -> (LiveClient, ChatRoomView)
    {
        let socket = LiveClient(port: client.port!, path: "/api/stations/\(station)/live?v=1", token: account?.token)
        let room = try await socket.next { if case .chatRoom = $0 { true } else { false } }
        guard case .chatRoom(let view) = room else { throw TestFailure("no chat room") }
        return (socket, view)
    }

    /// Sends a message and waits for its author's copy (or an error).
    static func say(_ socket: LiveClient, _ text: String, id: String) async throws -> ServerMessage {
        try socket.send(.chat(id: id, text: text))
        return try await socket.next {
            switch $0 {
            case .chat(_, id), .error(id, _, _): true
            default: false
            }
        }
    }

    @Test func aMessageReachesEveryoneOnceAndItsAuthorWithItsRef() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let owner = try await client.signUp(name: "Host")
            let ana = try await client.signUp("ana_\(UUID().uuidString.prefix(6).lowercased())", name: "Ana")
            let (host, hostRoom) = try await Self.join(client, owner.stationID, as: owner)
            let (listener, _) = try await Self.join(client, owner.stationID, as: ana)
            let (anonymous, _) = try await Self.join(client, owner.stationID, as: nil)
            defer { [host, listener, anonymous].forEach { $0.close() } }
            #expect(hostRoom.enabled && hostRoom.messages.isEmpty && hostRoom.muted == [])
            #expect(hostRoom.palette == Reactions.palette && hostRoom.maxLength == 300)

            let handle = try #require(owner.person.handle)
            let answer = try await Self.say(listener, "  hi @\(handle) <img src=x onerror=alert(1)>  ", id: "m-1")
            guard case .chat(let mine, "m-1") = answer else {
                Issue.record("expected the author's copy, got \(answer)")
                return
            }
            #expect(mine.text == "hi @\(handle) <img src=x onerror=alert(1)>")
            #expect(mine.mentions == [handle])
            #expect(mine.person == PersonRef(id: ana.id, name: "Ana"))
            for other in [host, anonymous] {
                let seen = try await other.next { if case .chat = $0 { true } else { false } }
                #expect(seen == .chat(message: mine, ref: nil))
            }
            // The anonymous may read, not post.
            let refused = try await Self.say(anonymous, "me too", id: "m-2")
            guard case .error(_, let code, _) = refused else { return }
            #expect(code == "chat_not_allowed")
        }
    }

    @Test func aNewcomerGetsTheNewestFiftyMessages() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let owner = try await client.signUp()
            var people: [(LiveClient, String)] = []
            // Twelve people, five messages each (the rate limit is per person).
            for index in 0..<12 {
                let person = try await client.signUp()
                people.append((try await Self.join(client, owner.stationID, as: person).0, "p\(index)"))
            }
            defer { people.forEach { $0.0.close() } }
            for round in 0..<5 {
                for (socket, name) in people {
                    let answer = try await Self.say(socket, "\(name) says \(round)", id: "\(name)-\(round)")
                    guard case .chat = answer else { throw TestFailure("refused: \(answer)") }
                }
            }
            let (late, room) = try await Self.join(client, owner.stationID, as: owner)
            defer { late.close() }
            #expect(room.messages.count == 50)
            #expect(room.messages.first?.text == "p10 says 0")
            #expect(room.messages.last?.text == "p11 says 4")
        }
    }

    @Test func badInputGetsAReasonAndChangesNothing() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let owner = try await client.signUp()
            let (socket, _) = try await Self.join(client, owner.stationID, as: owner)
            defer { socket.close() }
            let cases: [(String, String)] = [
                ("", "empty_message"), ("   ", "empty_message"), (String(repeating: "x", count: 301), "too_long"),
                ("line\nbreak", "control_characters"), ("bell\u{07}", "control_characters"),
                ("\u{202E}txt.exe", "control_characters"),
            ]
            for (index, (text, code)) in cases.enumerated() {
                let answer = try await Self.say(socket, text, id: "bad-\(index)")
                guard case .error(_, let got, let message) = answer else {
                    Issue.record("\(text.debugDescription) was taken")
                    continue
                }
                #expect(got == code, "\(text.debugDescription): \(message)")
            }
            for (index, raw) in [
                #"{"type":"chat"}"#, #"{"type":"chat","text":5}"#, #"{"type":"moderate","action":"nuke"}"#,
                #"{"type":"react","entryID":"e","emoji":"<b>"}"#, #"{"type":"moderate","action":"mute","personID":"p","minutes":7}"#,
            ].enumerated() {
                socket.sendRaw(raw)
                let refusal = try await socket.error()
                #expect(["bad_message", "unknown_reaction", "not_current", "invalid_mute"].contains(refusal.code), "\(index): \(refusal)")
            }
            // Still usable, and none of it was kept.
            guard case .chat = try await Self.say(socket, "still here", id: "ok") else {
                Issue.record("the socket stopped taking messages")
                return
            }
            let (late, room) = try await Self.join(client, owner.stationID, as: owner)
            defer { late.close() }
            #expect(room.messages.map(\.text) == ["still here"])
        }
    }

    @Test func aFloodIsSlowedAndMutesAndSlowModeHold() async throws {
        // The server's clock stands still, so the rate limit's 10 s can't
        // run out while a loaded machine answers the flood.
        let frozen = ManualClock.startingNow()
        let start = frozen.start
        let server = try await TestServer.make(clock: frozen.wall)
        try await server.application().test(.live) { client in
            let owner = try await client.signUp()
            let bo = try await client.signUp()
            let (host, _) = try await Self.join(client, owner.stationID, as: owner)
            let (listener, _) = try await Self.join(client, owner.stationID, as: bo)
            defer { [host, listener].forEach { $0.close() } }
            var codes: [String] = []
            for index in 0..<8 {
                switch try await Self.say(listener, "flood \(index)", id: "f\(index)") {
                case .chat: codes.append("ok")
                case .error(_, let code, _): codes.append(code)
                default: break
                }
            }
            #expect(codes == Array(repeating: "ok", count: 5) + Array(repeating: "too_fast", count: 3))

            // A listener can't moderate; a moderator can't be muted.
            try listener.send(.moderate(id: "x1", .mute(personID: owner.id, minutes: 15)))
            #expect(try await listener.error().code == "forbidden")
            try host.send(.moderate(id: "x2", .mute(personID: bo.id, minutes: 15)))
            let muted = try await listener.next {
                if case .chatRoom(let room) = $0 { room.mutedUntil != nil } else { false }
            }
            guard case .chatRoom(let room) = muted, let until = room.mutedUntil else { return }
            // On the server's clock, which stands still: not the wall's, which
            // runs on while a loaded machine gets here.
            #expect(until == start + 15 * 60_000)
            guard case .error(_, let code, let message) = try await Self.say(listener, "let me talk", id: "m") else {
                Issue.record("a muted person posted")
                return
            }
            #expect(code == "muted")
            #expect(message.contains("Try again in 15 min"))
            let hostView = try await host.next { if case .chatRoom(let room) = $0 { room.muted?.isEmpty == false } else { false } }
            guard case .chatRoom(let seen) = hostView else { return }
            #expect(seen.muted?.map(\.person.id) == [bo.id])

            // Slow mode spares the host.
            try host.send(.moderate(id: "x3", .slowMode(seconds: 60)))
            _ = try await host.next { if case .chatRoom(let room) = $0 { room.slowModeSeconds == 60 } else { false } }
            for index in 0..<2 {
                guard case .chat = try await Self.say(host, "host \(index)", id: "h\(index)") else {
                    Issue.record("slow mode held back the host")
                    return
                }
            }
        }
    }

    /// Whether someone may be muted is the station's word, not whether
    /// they happen to be connected: an owner or co-DJ who is away can't be,
    /// and an id that names nobody is refused.
    @Test func moderatorsCannotBeMutedWhileAway() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let owner = try await client.signUp()
            let codj = try await client.signUp()
            let other = try await client.signUp()
            #expect(try await client.send("/api/stations/\(owner.stationID)/codjs/\(codj.id)", .put, as: owner).status == .ok)
            let (co, _) = try await Self.join(client, owner.stationID, as: codj)
            defer { co.close() }
            try co.send(.moderate(id: "m1", .mute(personID: owner.id, minutes: 15)))
            #expect(try await co.error().code == "cannot_mute")
            try co.send(.moderate(id: "m2", .mute(personID: "nobody-at-all", minutes: 15)))
            #expect(try await co.error().code == "not_found")
            // Someone who is merely away can be muted, under their name.
            try co.send(.moderate(id: "m3", .mute(personID: other.id, minutes: 15)))
            let room = try await co.next { if case .chatRoom(let room) = $0 { room.muted?.isEmpty == false } else { false } }
            guard case .chatRoom(let view) = room else { return }
            #expect(view.muted?.map(\.person.id) == [other.id])
            co.close()
            // The owner, away, mutes nothing on their co-DJ either.
            let (host, _) = try await Self.join(client, owner.stationID, as: owner)
            defer { host.close() }
            try host.send(.moderate(id: "m4", .mute(personID: codj.id, minutes: 15)))
            #expect(try await host.error().code == "cannot_mute")
        }
    }

    @Test func moderatorsDeleteForEveryone() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let owner = try await client.signUp()
            let bo = try await client.signUp()
            let (host, _) = try await Self.join(client, owner.stationID, as: owner)
            let (listener, _) = try await Self.join(client, owner.stationID, as: bo)
            defer { [host, listener].forEach { $0.close() } }
            guard case .chat(let first, _) = try await Self.say(listener, "one", id: "1"),
                case .chat = try await Self.say(listener, "two", id: "2"),
                case .chat = try await Self.say(host, "host", id: "3")
            else { throw TestFailure("a message was refused") }
            try host.send(.moderate(id: "d1", .delete(messageID: first.id)))
            let deleted = try await listener.next { if case .chatDeleted = $0 { true } else { false } }
            #expect(deleted == .chatDeleted(messageIDs: [first.id], personID: nil, all: false))
            try host.send(.moderate(id: "d2", .deleteAllBy(personID: bo.id)))
            _ = try await listener.next { if case .chatDeleted(_, bo.id, false) = $0 { true } else { false } }
            let (late, room) = try await Self.join(client, owner.stationID, as: owner)
            defer { late.close() }
            #expect(room.messages.map(\.text) == ["host"])
        }
    }

    @Test func guestsPostOnlyWhenTheHostLetsThem() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let owner = try await client.signUp()
            let gus = try await client.guest("Gus")
            let (socket, room) = try await Self.join(client, owner.stationID, as: gus)
            defer { socket.close() }
            #expect(room.guestsMayPost)
            guard case .chat(let message, _) = try await Self.say(socket, "hi from a guest", id: "g1") else {
                throw TestFailure("a guest was refused")
            }
            #expect(message.handle == nil)
            // A guest is mentioned by their room handle.
            #expect(message.mention == ChatText.guestHandle(name: "Gus", personID: gus.id))
            let patched = try await client.send(
                "/api/stations/\(owner.stationID)/party", .patch, as: owner, body: PartySettingsPatch(guestChat: false))
            #expect(patched.status == .ok)
            _ = try await socket.next { if case .chatRoom(let room) = $0 { !room.guestsMayPost } else { false } }
            guard case .error(_, let code, _) = try await Self.say(socket, "again", id: "g2") else {
                throw TestFailure("a guest posted with guests off")
            }
            #expect(code == "chat_not_allowed")
            // With the chat off, nothing is sent or kept.
            _ = try await client.send(
                "/api/stations/\(owner.stationID)/party", .patch, as: owner, body: PartySettingsPatch(chat: false))
            let off = try await socket.next { if case .chatRoom(let room) = $0 { !room.enabled } else { false } }
            guard case .chatRoom(let offRoom) = off else { return }
            #expect(offRoom.messages.isEmpty)
        }
    }

    @Test func reactionsReachEveryoneAsABurst() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let owner = try await client.signUp()
            let (host, _) = try await Self.join(client, owner.stationID, as: owner)
            let (anonymous, _) = try await Self.join(client, owner.stationID, as: nil)
            defer { [host, anonymous].forEach { $0.close() } }
            // Held, so the song reacted to is still the one playing however
            // slow the machine (the test library's songs last 3 s).
            #expect(try await client.command(owner.stationID, key: owner.token, id: "hold", .pause).status == .ok)
            let window = try await client.send("/api/stations/\(owner.stationID)/timeline", .get).decode(TimelineWindow.self)
            let playing = try #require(window.current)
            try anonymous.send(.react(entryID: playing.id, emoji: "🔥"))
            try host.send(.react(entryID: playing.id, emoji: "🔥"))
            try host.send(.react(entryID: playing.id, emoji: "💃"))
            let seen = try await anonymous.next {
                if case .reactions(let view) = $0 { view.totals == ["🔥": 2, "💃": 1] } else { false }
            }
            guard case .reactions(let view) = seen else { return }
            #expect(view.entryID == playing.id)
            // Kept with the play.
            let kept = try await server.storage.reactions(stationID: owner.stationID, entryID: playing.id)
            #expect(kept == ["🔥": 2, "💃": 1])
        }
    }

    @Test func aRefusedReactionComesBackWithItsID() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let owner = try await client.signUp()
            let (host, _) = try await Self.join(client, owner.stationID, as: owner)
            defer { host.close() }
            // Held, so the song stays the one playing (the test library's songs last 3 s).
            #expect(try await client.command(owner.stationID, key: owner.token, id: "hold", .pause).status == .ok)
            let window = try await client.send("/api/stations/\(owner.stationID)/timeline", .get).decode(TimelineWindow.self)
            let playing = try #require(window.current)
            // Not on the palette, and a song that isn't playing: each refusal
            // names the reaction it refuses.
            try host.send(.react(id: "r-odd", entryID: playing.id, emoji: "🦑"))
            let odd = try await host.next { if case .error("r-odd", _, _) = $0 { true } else { false } }
            #expect(odd == .error(id: "r-odd", code: "unknown_reaction", message: ChatError.unknownReaction.description))
            try host.send(.react(id: "r-gone", entryID: "e-never-played", emoji: "🔥"))
            let gone = try await host.next { if case .error("r-gone", _, _) = $0 { true } else { false } }
            guard case .error(_, let code, _) = gone else { return }
            #expect(code == "not_current")
        }
    }

    @Test func killDashNineLosesNoAcknowledgedMessageMuteOrReaction() async throws {
        let data = NSTemporaryDirectory() + "wavelength-chat-kill-\(UUID().uuidString)"
        let libraries = try await TestLibrary.shared.roots()
        let http = HTTPClient.shared
        // Pings far apart: on a loaded machine a client a second late with
        // its pong would be let go, which is not what this test is about.
        let (first, killed) = try await ServerProcess.run(dataDirectory: data, libraries: libraries, pingInterval: 60) {
            server -> (acked: [String], station: String, key: String, muted: String, playing: EntryID) in
            func signUp(_ name: String) async throws -> AuthResponse {
                let body = try JSONEncoder().encode(
                    SignupRequest(handle: TestHandles.next(name), displayName: name, password: "correct horse", tokens: true))
                return try JSONDecoder().decode(
                    AuthResponse.self, from: try await http.send(.POST, server.baseURL + "/api/auth/signup", body: body).body)
            }
            let owner = try await signUp("own")
            let station = try #require(owner.station?.id)
            let key = try #require(owner.tokens?.accessToken)
            let other = try await signUp("mut")
            let socket = LiveClient(port: server.port, path: "/api/stations/\(station)/live?v=1", token: key)
            defer { socket.close() }
            _ = try await socket.next { if case .chatRoom = $0 { true } else { false } }
            try socket.send(.moderate(id: "mute", .mute(personID: other.person.id, minutes: 60)))
            _ = try await socket.next { if case .chatRoom(let room) = $0 { room.muted?.isEmpty == false } else { false } }
            var acked: [String] = []
            for index in 0..<5 {
                guard case .chat(let message, _) = try await Self.say(socket, "kept \(index)", id: "k\(index)") else {
                    throw TestFailure("refused")
                }
                acked.append(message.id)
            }
            // Held, so the song reacted to still plays after the restart.
            try socket.send(.command(CommandRequest(id: "hold", command: .pause)))
            _ = try await socket.next { if case .ack(let ack) = $0 { ack.id == "hold" } else { false } }
            let window = try JSONDecoder().decode(
                TimelineWindow.self, from: try await http.send(.GET, server.baseURL + "/api/stations/\(station)/timeline").body)
            let playing = try #require(window.current).id
            try socket.send(.react(entryID: playing, emoji: "🔥"))
            try socket.send(.react(entryID: playing, emoji: "💃"))
            // A burst is kept before it is sent.
            _ = try await socket.next {
                if case .reactions(let view) = $0 { view.totals == ["🔥": 1, "💃": 1] } else { false }
            }
            // One more in flight as the server dies.
            try socket.send(.chat(id: "late", text: "maybe"))
            await server.kill9()
            return (acked, station, key, other.person.id, playing)
        }
        #expect(killed == .signaled(SIGKILL))
        let (_, stopped) = try await ServerProcess.run(dataDirectory: data, libraries: libraries, pingInterval: 60) {
            restarted in
            let socket = LiveClient(port: restarted.port, path: "/api/stations/\(first.station)/live?v=1", token: first.key)
            defer { socket.close() }
            let joined = try await socket.next { if case .chatRoom = $0 { true } else { false } }
            guard case .chatRoom(let room) = joined else { return }
            let kept = Set(room.messages.map(\.id))
            for id in first.acked { #expect(kept.contains(id), "\(id) was acknowledged but lost") }
            #expect(room.muted?.map(\.person.id) == [first.muted])
            // The song's reactions count on from what was kept.
            #expect(room.reactions == ReactionsView(entryID: first.playing, burst: [:], totals: ["🔥": 1, "💃": 1]))
            try socket.send(.react(entryID: first.playing, emoji: "🔥"))
            let next = try await socket.next { if case .reactions = $0 { true } else { false } }
            #expect(next == .reactions(ReactionsView(entryID: first.playing, burst: ["🔥": 1], totals: ["🔥": 2, "💃": 1])))
        }
        #expect(stopped == .exited(0))
    }
}
