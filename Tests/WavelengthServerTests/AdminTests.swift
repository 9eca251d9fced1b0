import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WavelengthStore
import WavelengthWire

@testable import WavelengthServer

/// The server's administrators over HTTP: the table of admin operations in
/// docs/ARCHITECTURE.md walked for every kind of caller, and a suspension
/// as it plays out (sessions, sockets, the owner's station, sign-in).
@Suite("Administrators", .timeLimit(.minutes(5)))
struct AdminTests {
    /// Every admin operation, as `docs/ARCHITECTURE.md`'s "Server operations" table lists it.
    static let operations: [(HTTPRequest.Method, String, (any Encodable & Sendable)?)] = [
        (.get, "/api/admin/people?q=a", nil),
        (.get, "/api/admin/people/PERSON", nil),
        (.post, "/api/admin/people/PERSON/suspend", AdminActionRequest(reason: "testing")),
        (.post, "/api/admin/people/PERSON/unsuspend", AdminActionRequest(reason: "testing")),
        (.get, "/api/admin/registration", nil),
        (.put, "/api/admin/registration", RegistrationSettingsRequest(mode: "open", reason: "testing")),
        (.get, "/api/admin/audit", nil),
        (.get, "/api/admin/library", nil),
        (.get, "/api/admin/overview", nil),
        (.get, "/api/admin/reports", nil),
        (.get, "/api/admin/uploads", nil),
    ]

    static func grant(_ server: TestServer, _ account: TestAccount) async throws {
        let entry = AuditEntry(
            at: 1, actorID: nil, actorName: "the test's shell", action: "grant-admin", subjectKind: "person", subjectID: account.id,
            subjectName: account.id, reason: "testing")
        let handle = try #require(account.person.handle)
        let made = try await server.storage.setAdministrator(handle: handle, true, audit: entry)
        #expect(made?.id == account.id)
    }

    @Test func onlyAdministratorsReachAdminOperations() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let admin = try await client.signUp(), member = try await client.signUp(), subject = try await client.signUp()
            let guest = try await client.guest("Visitor")
            try await Self.grant(server, admin)
            for (method, path, body) in Self.operations {
                let uri = path.replacingOccurrences(of: "PERSON", with: subject.id)
                #expect(try await client.send(uri, method, body: body).status == .unauthorized, "anonymous: \(uri)")
                #expect(try await client.send(uri, method, as: guest, body: body).status == .forbidden, "guest: \(uri)")
                #expect(try await client.send(uri, method, as: member, body: body).status == .forbidden, "member: \(uri)")
                #expect(try await client.send(uri, method, as: admin, body: body).status == .ok, "admin: \(uri)")
            }
            // Each action is in the log, newest first, with who and why.
            let log = try await client.send("/api/admin/audit", .get, as: admin).decode([AuditEntryView].self)
            #expect(log.prefix(4).map(\.action) == ["set-registration", "unsuspend", "suspend", "grant-admin"])
            #expect(log[1].actorID == admin.id && log[1].subjectID == subject.id && log[1].reason == "testing")
            // A reason is required, and bounded.
            for reason in ["", " ", String(repeating: "x", count: 501)] {
                let refused = try await client.send(
                    "/api/admin/people/\(subject.id)/suspend", .post, as: admin, body: AdminActionRequest(reason: reason))
                #expect(refused.status == .badRequest)
            }
            // A reason with a line break, a bidi override and a terminal escape
            // is kept as typed, and the log shows and exports it inert.
            let hostile = "spam\nALSO: \u{202E}nimda\u{1B}[31m red 👨‍👩‍👧"
            _ = try await client.send(
                "/api/admin/people/\(subject.id)/suspend", .post, as: admin, body: AdminActionRequest(reason: hostile))
            let shown = try #require(try await client.send("/api/admin/audit", .get, as: admin).decode([AuditEntryView].self).first)
            #expect(shown.reason == "spam⟨U+000A⟩ALSO: ⟨U+202E⟩nimda⟨U+001B⟩[31m red 👨‍👩‍👧")
            let stored = try #require(try await server.storage.auditLog(before: nil, limit: 1).first)
            #expect(stored.reason == hostile)
            _ = try await client.send("/api/admin/people/\(subject.id)/unsuspend", .post, as: admin, body: AdminActionRequest(reason: "x"))
            #expect(try await client.send("/api/admin/people/nobody/suspend", .post, as: admin, body: AdminActionRequest(reason: "x")).status == .notFound)
            #expect(try await client.send("/api/admin/people/\(admin.id)/suspend", .post, as: admin, body: AdminActionRequest(reason: "x")).status == .conflict)
            let found = try await client.send("/api/admin/people?q=\(subject.person.handle!)", .get, as: admin).decode([AdminPersonView].self)
            #expect(found.map(\.person.id) == [subject.id] && found[0].suspendedAt == nil)
        }
    }

    /// "Scan now" puts the whole library in the next rescan and logs it; a
    /// cluster's nodes don't rescan live, and say so.
    @Test func scanNowIsForAdministratorsAndLogged() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let admin = try await client.signUp(), member = try await client.signUp()
            try await Self.grant(server, admin)
            #expect(try await client.send("/api/admin/library/scan", .post).status == .unauthorized)
            #expect(try await client.send("/api/admin/library/scan", .post, as: member).status == .forbidden)
            let asked = try await client.send("/api/admin/library/scan", .post, as: admin)
            if TestStore.current == .postgres {
                #expect(asked.status == .conflict)
                #expect(try await client.send("/api/admin/library", .get, as: admin).decode(LibraryScanStatus.self).available == false)
            } else {
                #expect(asked.status == .ok)
                let status = try asked.decode(LibraryScanStatus.self)
                #expect(status.available && (status.queued || status.scanning || status.last != nil))
                let log = try await client.send("/api/admin/audit", .get, as: admin).decode([AuditEntryView].self)
                #expect(log.first?.action == "scan-library" && log.first?.actorID == admin.id)
            }
        }
    }

    /// A suspended person gets nothing: their sessions end, their socket
    /// closes, their station goes off the air and turns listeners away,
    /// and signing in says why. Lifted, they sign in again.
    @Test func aSuspensionEndsEverythingThePersonHasAndIsLifted() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let admin = try await client.signUp(), subject = try await client.signUp("suspended_\(UUID().uuidString.prefix(6).lowercased())")
            let listener = try await client.signUp()
            try await Self.grant(server, admin)
            let own = LiveClient(port: client.port!, path: "/api/stations/\(subject.stationID)/live?v=1", token: subject.token)
            let visitor = LiveClient(port: client.port!, path: "/api/stations/\(subject.stationID)/live?v=1", token: listener.token)
            let elsewhere = LiveClient(port: client.port!, path: "/api/stations/\(listener.stationID)/live?v=1", token: subject.token)
            for socket in [own, visitor, elsewhere] { _ = try await socket.snapshot() }

            let suspended = try await client.send(
                "/api/admin/people/\(subject.id)/suspend", .post, as: admin, body: AdminActionRequest(reason: "spam in the chat"))
            #expect(try suspended.decode(AdminPersonView.self).suspensionReason == "spam in the chat")
            for socket in [own, visitor, elsewhere] { await socket.closed() }
            // The token they held is void, their station turns listeners away.
            #expect(try await client.send("/api/auth/me", .get, as: subject).status == .unauthorized)
            let station = try await client.send("/api/stations/\(subject.stationID)/timeline", .get, as: listener)
            #expect(station.status == .forbidden)
            #expect(try station.decode(ErrorBodyView.self).error.code == "suspended")
            let login = LoginRequest(handle: subject.person.handle!, password: "correct horse", tokens: true)
            let refused = try await client.send("/api/auth/login", .post, body: login)
            #expect(refused.status == .forbidden)
            #expect(try refused.decode(ErrorBodyView.self).error.message.contains("spam in the chat"))

            _ = try await client.send(
                "/api/admin/people/\(subject.id)/unsuspend", .post, as: admin, body: AdminActionRequest(reason: "apologised"))
            #expect(try await client.send("/api/auth/login", .post, body: login).status == .ok)
            #expect(try await client.send("/api/stations/\(subject.stationID)/timeline", .get, as: listener).status == .ok)
        }
    }
}

/// An error answer's body.
struct ErrorBodyView: Decodable {
    struct Inner: Decodable {
        var code: String
        var message: String
    }
    var error: Inner
}
