import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WavelengthWire

@testable import WavelengthServer

/// A password reset link over HTTP: made by an administrator only, for a
/// user only; it says whose it is, sets a new password once, ends every
/// session of the person, and an earlier link stops working.
@Suite("Password reset links", .timeLimit(.minutes(5)))
struct PasswordResetTests {
    static func token(_ link: PasswordResetLink) throws -> String {
        try #require(link.url.components(separatedBy: "/#/reset/").last)
    }

    @Test func anAdministratorsLinkSetsANewPasswordOnceAndEndsEverySession() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let admin = try await client.signUp(), member = try await client.signUp(), visitor = try await client.guest("Visitor")
            try await AdminTests.grant(server, admin)
            let path = "/api/admin/people/\(member.id)/password-reset"
            #expect(try await client.send(path, .post).status == .unauthorized)
            #expect(try await client.send(path, .post, as: member).status == .forbidden)
            #expect(try await client.send("/api/admin/people/\(visitor.id)/password-reset", .post, as: admin).status == .notFound)

            let first = try await client.send(path, .post, as: admin).decode(PasswordResetLink.self)
            let made = try await client.send(path, .post, as: admin, body: AdminActionRequest(reason: "lost it at the party"))
            #expect(made.status == .created)
            let link = try made.decode(PasswordResetLink.self)
            #expect(link.url.hasPrefix("/#/reset/"))
            // The newer link is the one that works.
            #expect(try await client.send("/api/auth/password-reset/\(try Self.token(first))", .get).status == .notFound)
            let lookup = try await client.send("/api/auth/password-reset/\(try Self.token(link))", .get).decode(PasswordResetLookup.self)
            #expect(lookup.handle == member.person.handle)

            let short = try await client.send(
                "/api/auth/password-reset", .post, body: PasswordResetRequest(token: try Self.token(link), newPassword: "short"))
            #expect(short.status == .badRequest)
            let madeUp = try await client.send(
                "/api/auth/password-reset", .post, body: PasswordResetRequest(token: "nope", newPassword: "a new long password"))
            #expect(madeUp.status == .notFound && madeUp.errorCode == "invalid_token")
            let reset = try await client.send(
                "/api/auth/password-reset", .post, body: PasswordResetRequest(token: try Self.token(link), newPassword: "a new long password"))
            #expect(reset.status == .noContent)
            // Every session of theirs ended; the new password signs in, the old doesn't.
            #expect(try await client.send("/api/auth/me", .get, as: member).decode(MeResponse.self).person == nil)
            let handle = try #require(member.person.handle)
            #expect(try await client.send("/api/auth/login", .post, body: LoginRequest(handle: handle, password: "correct horse", tokens: true)).status == .unauthorized)
            #expect(try await client.send("/api/auth/login", .post, body: LoginRequest(handle: handle, password: "a new long password", tokens: true)).status == .ok)
            // Once only.
            let again = try await client.send(
                "/api/auth/password-reset", .post, body: PasswordResetRequest(token: try Self.token(link), newPassword: "yet another password"))
            #expect(again.status == .notFound)
            let log = try await client.send("/api/admin/audit", .get, as: admin).decode([AuditEntryView].self)
            #expect(log.first?.action == "password-reset" && log.first?.reason == "lost it at the party")
        }
    }
}
