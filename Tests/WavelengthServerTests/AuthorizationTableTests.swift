import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing
import WavelengthCore
import WavelengthWire

@testable import WavelengthServer

/// Walks the whole authorization table over HTTP: every operation, tried by
/// someone of every role (and by nobody at all), must be allowed exactly
/// where `StationPermissions.table` says and refused everywhere else.
@Suite("The authorization table", .timeLimit(.minutes(5)))
struct AuthorizationTableTests {
    /// The people of one code-protected party station.
    struct Cast {
        var owner: TestAccount
        var codj: TestAccount
        var listener: TestAccount
        var outsider: TestAccount
        /// Someone to grant, kick and ban.
        var victim: TestAccount
        var stationID: String

        func account(for role: StationRole) -> TestAccount {
            switch role {
            case .owner: owner
            case .codj: codj
            case .listener: listener
            case .none: outsider
            }
        }
    }

    @Test func everyOperationForEveryRole() async throws {
        let server = try await TestServer.make { $0.stationsPerAccount = 1000 }
        try await server.application().test(.router) { client in
            let people = (
                owner: try await client.signUp(), codj: try await client.signUp(),
                listener: try await client.signUp(), outsider: try await client.signUp(),
                victim: try await client.guest("Victim")
            )
            let track = try await client.firstTrack(matching: "a")
            var checked = 0
            for operation in StationOperation.allCases where !Self.overTheWebSocket.contains(operation) {
                // A fresh station per operation: some operations (end, leave,
                // ban) change who is who.
                let cast = try await Self.stage(client, people)
                // Nobody signed in: always refused, with 401.
                let anonymous = try await Self.attempt(
                    operation, by: nil, cast: cast, track: track.id, client: client, server: server)
                #expect(anonymous.status == .unauthorized, "\(operation) by nobody answered \(anonymous.status)")
                // Least to most privileged, so an allowed leave or end comes last.
                for role in [StationRole.none, .listener, .codj, .owner] {
                    let response = try await Self.attempt(
                        operation, by: cast.account(for: role), cast: cast, track: track.id, client: client, server: server)
                    let allowed = StationPermissions.allows(role, operation)
                    if allowed {
                        #expect(
                            (200..<300).contains(response.status.code),
                            "\(operation) by \(role) should be allowed; answered \(response.status) \(String(buffer: response.body))")
                    } else {
                        #expect(
                            response.status == .forbidden || response.status == .unauthorized,
                            "\(operation) by \(role) should be refused; answered \(response.status)")
                    }
                    checked += 1
                }
            }
            #expect(checked == (StationOperation.allCases.count - Self.overTheWebSocket.count) * 4)
        }
    }

    /// The room's operations exist only on the station's WebSocket.
    static let overTheWebSocket: Set<StationOperation> = [.chat, .moderateChat]

    /// The room's operations, tried over the WebSocket by nobody and by
    /// someone of every role, are allowed exactly where the table says.
    @Test func everyRoomOperationForEveryRole() async throws {
        let server = try await TestServer.make { $0.stationsPerAccount = 1000 }
        try await server.application().test(.live) { client in
            let people = (
                owner: try await client.signUp(), codj: try await client.signUp(),
                listener: try await client.signUp(), outsider: try await client.signUp(),
                victim: try await client.guest("Victim")
            )
            let cast = try await Self.stage(client, people)
            var checked = 0
            for operation in Self.overTheWebSocket.sorted(by: { $0.rawValue < $1.rawValue }) {
                for account in [nil] + [StationRole.none, .listener, .codj, .owner].map(cast.account(for:)) {
                    let role = account.map { account in
                        [StationRole.none, .listener, .codj, .owner].first { cast.account(for: $0).id == account.id }!
                    }
                    let socket = LiveClient(
                        port: client.port!, path: "/api/stations/\(cast.stationID)/live?v=1", token: account?.token)
                    defer { socket.close() }
                    let id = "\(operation.rawValue)-\(checked)"
                    let answer = try await socket.next {
                        if case .access = $0 { true } else if case .error = $0 { true } else { false }
                    }
                    if case .access = answer {
                        // The room as it was on joining.
                        _ = try await socket.next { if case .chatRoom = $0 { true } else { false } }
                        switch operation {
                        case .chat: try socket.send(.chat(id: id, text: "hello from \(role.map { "\($0)" } ?? "nobody")"))
                        default: try socket.send(.moderate(id: id, .slowMode(seconds: 0)))
                        }
                    }
                    let allowed = role.map { StationPermissions.allows($0, operation) } ?? false
                    if case .access = answer, allowed, operation == .chat {
                        // Its author's copy, or an error.
                        let echo = try await socket.next {
                            switch $0 {
                            case .chat(_, id), .error(id, _, _): true
                            default: false
                            }
                        }
                        if case .error(_, let code, _) = echo {
                            Issue.record("\(operation) by \(role.map { "\($0)" } ?? "nobody") should be allowed, was refused: \(code)")
                        }
                    } else if case .access = answer, allowed {
                        let room = try await socket.next { if case .chatRoom = $0 { true } else { false } }
                        guard case .chatRoom(let view) = room else { continue }
                        #expect(view.slowModeSeconds == 0)
                    } else if case .access = answer {
                        let refusal = try await socket.next { if case .error(id, _, _) = $0 { true } else { false } }
                        guard case .error(_, let code, _) = refusal else { continue }
                        #expect(code == "forbidden", "\(operation) by \(role.map { "\($0)" } ?? "nobody") answered \(code)")
                    } else {
                        // Refused at the door: nobody signed in, or no member.
                        #expect(!allowed)
                    }
                    checked += 1
                }
            }
            #expect(checked == Self.overTheWebSocket.count * 5)
        }
    }

    /// The table in docs/ARCHITECTURE.md is the one in the code.
    @Test func theDocumentedTableIsTheCodeTable() throws {
        let docs = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/ARCHITECTURE.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        #expect(text.contains(StationPermissions.markdownTable()))
    }

    /// A listener's WebSocket commands are refused like their HTTP ones.
    @Test func aListenerCannotCommandOverTheWebSocket() async throws {
        let server = try await TestServer.make { $0.stationsPerAccount = 1000 }
        try await server.application().test(.live) { client in
            let owner = try await client.signUp()
            let listener = try await client.signUp()
            let socket = LiveClient(
                port: client.port!, path: "/api/stations/\(owner.stationID)/live?v=1", token: listener.token)
            let access = try await socket.next { if case .access = $0 { true } else { false } }
            #expect(access == .access(role: .listener))
            try socket.send(.command(CommandRequest(id: "no-1", command: .skip(entryID: nil))))
            let refusal = try await socket.next { if case .error = $0 { true } else { false } }
            guard case .error(let id, let code, _) = refusal else { return }
            #expect(id == "no-1")
            #expect(code == "forbidden")
        }
    }

    struct WebSocketOnly: Error {
        var operation: StationOperation
    }

    // MARK: Staging

    static func stage(
        _ client: some TestClientProtocol,
        _ people: (owner: TestAccount, codj: TestAccount, listener: TestAccount, outsider: TestAccount, victim: TestAccount)
    ) async throws -> Cast {
        let created = try await client.send(
            "/api/stations", .post, as: people.owner, body: CreateStationRequest(name: "Party", visibility: .code))
        let station = try created.decode(CreateStationResponse.self).station
        let code = try await client.send("/api/stations/\(station.id)/code", .get, as: people.owner).decode(CodeView.self)
        for member in [people.codj, people.listener, people.victim] {
            let joined = try await client.send(
                "/api/frequencies/\(code.frequency ?? "")/join", .post, as: member,
                body: JoinRequest(accessCode: code.accessCode))
            #expect(joined.status == .ok)
        }
        let granted = try await client.send("/api/stations/\(station.id)/codjs/\(people.codj.id)", .put, as: people.owner)
        #expect(granted.status == .ok)
        return Cast(
            owner: people.owner, codj: people.codj, listener: people.listener, outsider: people.outsider,
            victim: people.victim, stationID: station.id)
    }

    /// Performs one operation as `account` (nil: nobody signed in).
    static func attempt(
        _ operation: StationOperation, by account: TestAccount?, cast: Cast, track: String,
        client: some TestClientProtocol, server: TestServer
    ) async throws -> TestResponse {
        let station = "/api/stations/\(cast.stationID)"
        let victim = cast.victim.id
        switch operation {
        case .chat, .moderateChat:
            throw WebSocketOnly(operation: operation)
        case .sendClip:
            try await openClips(cast, client: client, server: server)
            return try await client.upload("\(station)/clips", as: account, bytes: try await Self.clipAudio())
        case .approveClip:
            try await openClips(cast, client: client, server: server)
            let sent = try await client.upload("\(station)/clips", as: cast.listener, bytes: try await Self.clipAudio())
            let clip = try sent.decode(ClipView.self)
            let response = try await client.send("\(station)/clips/\(clip.id)/approve", .post, as: account)
            if !(200..<300).contains(response.status.code) {
                // Refused: the waiting clip goes, so the listener never hits their limit.
                _ = try await client.send("\(station)/clips/\(clip.id)", .delete, as: cast.owner)
            }
            return response
        case .editSchedule:
            // One show, made by the owner the first time and edited by each role.
            let shows = try await client.send("\(station)/schedule", .get, as: cast.owner).decode(ScheduleView.self).shows
            var showID = shows.first?.id
            if showID == nil {
                showID = try await client.send("\(station)/shows", .post, as: cast.owner, body: ScheduleRouteTests.nightOwls())
                    .decode(ShowView.self).id
            }
            return try await client.send("\(station)/shows/\(showID!)", .put, as: account, body: ScheduleRouteTests.nightOwls())
        case .command:
            let request = CommandRequest(id: "c-\(UUID().uuidString)", command: .append(trackID: track))
            return try await client.send("\(station)/commands", .post, as: account, body: request)
        case .setPool:
            return try await client.send("\(station)/pool", .put, as: account, body: StationPool(trackIDs: []))
        case .editSettings:
            return try await client.send(station, .patch, as: account, body: StationSettingsPatch(name: "Renamed"))
        case .viewCode:
            return try await client.send("\(station)/code", .get, as: account)
        case .rotateCode:
            return try await client.send("\(station)/code", .post, as: account, body: RotateCodeRequest())
        case .createInvite:
            return try await client.send("\(station)/invites", .post, as: account, body: CreateInviteRequest())
        case .listInvites:
            return try await client.send("\(station)/invites", .get, as: account)
        case .revokeInvite:
            let invite = try await client.send("\(station)/invites", .post, as: cast.owner, body: CreateInviteRequest())
                .decode(InviteCreated.self)
            return try await client.send("\(station)/invites/\(invite.id)", .delete, as: account)
        case .viewMembers:
            return try await client.send("\(station)/members", .get, as: account)
        case .grantCoDJ:
            return try await client.send("\(station)/codjs/\(victim)", .put, as: account)
        case .revokeCoDJ:
            return try await client.send("\(station)/codjs/\(victim)", .delete, as: account)
        case .kick:
            return try await client.send("\(station)/kick", .post, as: account, body: PersonIDRequest(personID: victim))
        case .ban:
            return try await client.send("\(station)/ban", .post, as: account, body: PersonIDRequest(personID: victim))
        case .unban:
            return try await client.send("\(station)/bans/\(victim)", .delete, as: account)
        case .endSession:
            return try await client.send("\(station)/end", .post, as: account)
        case .leave:
            return try await client.send("\(station)/membership", .delete, as: account)
        case .request:
            try await openRequests(cast, client: client)
            let request = CommandRequest(id: "r-\(UUID().uuidString)", command: .request(trackID: track))
            return try await client.send("\(station)/commands", .post, as: account, body: request)
        case .vote:
            let id = try await ownerRequest(track, cast: cast, client: client)
            let vote = CommandRequest(id: "v-\(UUID().uuidString)", command: .vote(requestID: id, vote: .up))
            return try await client.send("\(station)/commands", .post, as: account, body: vote)
        case .arrangeRequests:
            let id = try await ownerRequest(track, cast: cast, client: client)
            let move = CommandRequest(id: "m-\(UUID().uuidString)", command: .moveRequest(requestID: id, toIndex: 0))
            return try await client.send("\(station)/commands", .post, as: account, body: move)
        }
    }

    /// The station takes listeners' clips, and someone listens (a clip
    /// plays between songs, so only while the station is on the air).
    static func openClips(_ cast: Cast, client: some TestClientProtocol, server: TestServer) async throws {
        let opened = try await client.send(
            "/api/stations/\(cast.stationID)/party", .patch, as: cast.owner, body: PartySettingsPatch(guestClips: true))
        #expect(opened.status == .ok)
        let hub = try #require(try await server.services.directory.hub(id: cast.stationID))
        if await hub.listenerCount == 0 {
            // A listener whose messages go nowhere: the station is awake.
            try await hub.connect(ConnectionIDs.next(), queue: AsyncStream<LiveOutgoing>.makeStream().continuation, since: nil)
        }
    }

    /// A second of a browser's recording, made once.
    static func clipAudio() async throws -> Data {
        if let made = clipTone.withLock({ $0 }) { return made }
        let made = try await TestAudio.tone(seconds: 1)
        clipTone.withLock { $0 = made }
        return made
    }
    static let clipTone = Mutex<Data?>(nil)

    /// The station takes requests (its owner turns them on).
    static func openRequests(_ cast: Cast, client: some TestClientProtocol) async throws {
        let opened = try await client.send(
            "/api/stations/\(cast.stationID)/party", .patch, as: cast.owner, body: PartySettingsPatch(mode: .requests))
        #expect(opened.status == .ok)
    }

    /// A request waiting in the queue, made by the owner; its id.
    static func ownerRequest(_ track: String, cast: Cast, client: some TestClientProtocol) async throws -> String {
        try await openRequests(cast, client: client)
        let station = "/api/stations/\(cast.stationID)"
        let made = try await client.send(
            "\(station)/commands", .post, as: cast.owner,
            body: CommandRequest(id: "o-\(UUID().uuidString)", command: .request(trackID: track)))
        #expect(made.status == .ok)
        let party = try await client.send("\(station)/party", .get, as: cast.owner).decode(PartyView.self)
        return try #require(party.requests.first?.id)
    }
}
