import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WavelengthCore
import WavelengthWire

@testable import WavelengthServer

/// Hiding a station from the dial, deleting a person (an administrator's)
/// and deleting your own account, over a real socket.
@Suite("Hiding stations and deleting people", .timeLimit(.minutes(5)))
struct PersonDeletionTests {
    static func dialIDs(_ client: some TestClientProtocol, as account: TestAccount) async throws -> [String] {
        try await client.send("/api/dial", .get, as: account).decode(DialView.self).sections.filter { $0.kind != "own" }
            .flatMap(\.stations).map(\.id)
    }

    @Test func aHiddenStationLeavesTheDialButPlaysByItsLink() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let admin = try await client.signUp(), host = try await client.signUp(), fan = try await client.signUp()
            try await AdminTests.grant(server, admin)
            _ = try await client.send("/api/people/\(host.id)/follow", .put, as: fan)
            #expect(try await Self.dialIDs(client, as: fan).contains(host.stationID))
            let hide = "/api/admin/stations/\(host.stationID)/hide"
            #expect(try await client.send(hide, .post, as: host, body: AdminActionRequest(reason: "x")).status == .forbidden)
            #expect(try await client.send(hide, .post, as: admin, body: AdminActionRequest(reason: "Its name is a slur")).status == .noContent)
            #expect(try await !Self.dialIDs(client, as: fan).contains(host.stationID))
            let listed = try await client.send("/api/stations", .get).decode([StationView].self)
            #expect(!listed.map(\.id).contains(host.stationID))
            #expect(try await client.send("/api/stations/\(host.stationID)", .get, as: fan).status == .ok)
            // The owner still finds it on their own dial; the control room says it's hidden.
            let own = try await client.send("/api/dial", .get, as: host).decode(DialView.self).sections.first { $0.kind == "own" }
            #expect(own?.stations.map(\.id) == [host.stationID])
            let detail = try await client.send("/api/admin/people/\(host.id)", .get, as: admin).decode(AdminPersonDetail.self)
            #expect(detail.hiddenStations == [host.stationID])
            let show = "/api/admin/stations/\(host.stationID)/show"
            #expect(try await client.send(show, .post, as: admin, body: AdminActionRequest(reason: "Renamed")).status == .noContent)
            #expect(try await Self.dialIDs(client, as: fan).contains(host.stationID))
            #expect(try await client.send("/api/admin/stations/nope/hide", .post, as: admin, body: AdminActionRequest(reason: "x")).status == .notFound)
            let log = try await client.send("/api/admin/audit", .get, as: admin).decode([AuditEntryView].self)
            #expect(log.prefix(2).map(\.action) == ["show-station", "hide-station"])
        }
    }

    /// Their station goes, what they said leaves the rooms they were in,
    /// their sessions end; the log keeps the name.
    @Test func anAdministratorDeletesAPerson() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let admin = try await client.signUp(), host = try await client.signUp(), gone = try await client.signUp()
            try await AdminTests.grant(server, admin)
            let (room, _) = try await ChatTests.join(client, host.stationID, as: host)
            let (theirs, _) = try await ChatTests.join(client, host.stationID, as: gone)
            defer { [room, theirs].forEach { $0.close() } }
            guard case .chat(let said, _) = try await ChatTests.say(theirs, "remember me", id: "1") else {
                throw TestFailure("refused")
            }
            _ = try await room.next { if case .chat = $0 { true } else { false } }
            let path = "/api/admin/people/\(gone.id)/delete"
            #expect(try await client.send(path, .post, as: host, body: AdminActionRequest(reason: "x")).status == .forbidden)
            #expect(try await client.send("/api/admin/people/\(admin.id)/delete", .post, as: admin, body: AdminActionRequest(reason: "x")).status == .conflict)
            #expect(try await client.send(path, .post, as: admin, body: AdminActionRequest(reason: "Asked to be forgotten")).status == .noContent)
            _ = try await room.next { if case .chatDeleted(let ids, _, _) = $0 { ids == [said.id] } else { false } }
            await theirs.closed()
            #expect(try await client.send("/api/auth/me", .get, as: gone).status == .unauthorized)
            #expect(try await client.send("/api/stations/\(gone.stationID)", .get, as: host).status == .notFound)
            #expect(try await client.send("/api/admin/people/\(gone.id)", .get, as: admin).status == .notFound)
            let (late, chat) = try await ChatTests.join(client, host.stationID, as: host)
            late.close()
            #expect(!chat.messages.map(\.id).contains(said.id))
            let log = try await client.send("/api/admin/audit", .get, as: admin).decode([AuditEntryView].self)
            #expect(log.first?.action == "delete-person" && log.first?.subjectName == gone.person.handle.map { "@\($0)" })
        }
    }

    @Test func aPersonDeletesTheirOwnAccountWithTheirPassword() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let handle = TestHandles.next("del")
            let me = try await client.signUp(handle)
            let guest = try await client.guest("Gus")
            let path = "/api/auth/delete-account"
            #expect(try await client.send(path, .post, body: DeleteAccountRequest(password: "x")).status == .unauthorized)
            #expect(try await client.send(path, .post, as: guest, body: DeleteAccountRequest(password: "x")).status == .unauthorized)
            let wrong = try await client.send(path, .post, as: me, body: DeleteAccountRequest(password: "not it at all"))
            #expect(wrong.status == .forbidden && ClipTests.code(wrong) == "wrong_password")
            #expect(try await client.send(path, .post, as: me, body: DeleteAccountRequest(password: "correct horse")).status == .noContent)
            let login = LoginRequest(handle: handle, password: "correct horse", tokens: true)
            #expect(try await client.send("/api/auth/login", .post, body: login).status == .unauthorized)
            #expect(try await client.send("/api/stations/\(me.stationID)", .get).status == .notFound)
            // The handle is free again.
            #expect(try await client.signUp(handle).person.handle == handle)
        }
    }
}
