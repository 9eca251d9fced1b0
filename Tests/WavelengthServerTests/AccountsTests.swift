import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WavelengthWire

@Suite("Accounts, sessions and follows", .timeLimit(.minutes(5)))
struct AccountsTests {
    @Test func signingUpGivesYouAStationAndLoginDoesNotTellWhoExists() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let ana = try await client.signUp("ana", name: "Ana")
            #expect(ana.person.kind == "user")
            #expect(ana.person.stationID == ana.stationID)
            let station = try await client.send("/api/stations/\(ana.stationID)", .get, as: ana).decode(StationView.self)
            #expect(station.ownerID == ana.id)
            #expect(station.role == .owner)

            let good = try await client.send("/api/auth/login", .post, body: LoginRequest(handle: "ANA", password: "correct horse", tokens: true))
            #expect(good.status == .ok)
            #expect(try good.decode(AuthResponse.self).person.id == ana.id)
            let wrongPassword = try await client.send("/api/auth/login", .post, body: LoginRequest(handle: "ana", password: "nope nope"))
            let noSuchHandle = try await client.send("/api/auth/login", .post, body: LoginRequest(handle: "nobody", password: "nope nope"))
            #expect(wrongPassword.status == .unauthorized)
            #expect(noSuchHandle.status == .unauthorized)
            // The same answer either way: errors don't reveal whether an account exists.
            #expect(try wrongPassword.decode(ErrorBody.self) == noSuchHandle.decode(ErrorBody.self))
        }
    }

    @Test func badSignupsAreRefusedClearly() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            _ = try await client.signUp("taken")
            let cases: [(SignupRequest, HTTPResponse.Status, String)] = [
                (.init(handle: "taken", displayName: "X", password: "long enough"), .conflict, "handle_taken"),
                (.init(handle: "ab", displayName: "X", password: "long enough"), .badRequest, "invalid_handle"),
                (.init(handle: "No Spaces", displayName: "X", password: "long enough"), .badRequest, "invalid_handle"),
                (.init(handle: "fine", displayName: String(repeating: "n", count: 41), password: "long enough"), .badRequest, "invalid_name"),
                // Only spaces, and 40 letters that are 80 code points (e + a
                // combining accent): the OpenAPI document's pattern and
                // maxLength refuse both, so the server does too.
                (.init(handle: "fine", displayName: "  \u{3000} ", password: "long enough"), .badRequest, "invalid_name"),
                (.init(handle: "fine", displayName: String(repeating: "e\u{301}", count: 40), password: "long enough"), .badRequest, "invalid_name"),
                (.init(handle: "fine", displayName: "X", password: "short"), .badRequest, "invalid_password"),
                (.init(handle: "fine", displayName: "X", password: String(repeating: "p", count: 73)), .badRequest, "invalid_password"),
            ]
            for (request, status, code) in cases {
                let response = try await client.send("/api/auth/signup", .post, body: request)
                #expect(response.status == status, "\(request)")
                #expect(response.errorCode == code, "\(request)")
            }
        }
    }

    /// A refresh token used twice was copied: the whole session ends, the
    /// tokens its rotation gave included.
    @Test func aReplayedRefreshTokenEndsItsSession() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let ana = try await client.signUp()
            let rotated = try await client.send("/api/auth/refresh", .post, body: RefreshRequest(refreshToken: ana.refreshToken))
                .decode(RefreshResponse.self).tokens
            let replay = try await client.send("/api/auth/refresh", .post, body: RefreshRequest(refreshToken: ana.refreshToken))
            #expect(replay.status == .unauthorized)
            // The rotation's tokens stop working too.
            var holder = ana
            holder.token = rotated.accessToken
            #expect(try await client.send("/api/auth/me", .get, as: holder).status == .unauthorized)
            let next = try await client.send("/api/auth/refresh", .post, body: RefreshRequest(refreshToken: rotated.refreshToken))
            #expect(next.status == .unauthorized)
        }
    }

    @Test func refreshRotatesAndLogoutRevokesAtOnce() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let ana = try await client.signUp()
            let me = try await client.send("/api/auth/me", .get, as: ana).decode(MeResponse.self)
            #expect(me.person?.id == ana.id)

            let refreshed = try await client.send("/api/auth/refresh", .post, body: RefreshRequest(refreshToken: ana.refreshToken))
            #expect(refreshed.status == .ok)
            let tokens = try refreshed.decode(RefreshResponse.self).tokens
            #expect(tokens.expiresIn == 900)

            var fresh = ana
            fresh.token = tokens.accessToken
            #expect(try await client.send("/api/auth/logout", .post, as: fresh).status == .noContent)
            // Every access token of the session stops working at once.
            for token in [ana.token, tokens.accessToken] {
                var old = ana
                old.token = token
                let after = try await client.send("/api/auth/me", .get, as: old)
                #expect(after.status == .unauthorized)
                #expect(after.errorCode == "invalid_token")
            }
            let forged = try await client.execute(
                uri: "/api/auth/me", method: .get, headers: [.authorization: "Bearer not.a.jwt"])
            #expect(forged.status == .unauthorized)
            // The old refresh token is spent (and a replay ends the session:
            // `aReplayedRefreshTokenEndsItsSession`).
            let replay = try await client.send("/api/auth/refresh", .post, body: RefreshRequest(refreshToken: ana.refreshToken))
            #expect(replay.status == .unauthorized)
        }
    }

    @Test func changingThePasswordSignsOutEverywhereElse() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let phone = try await client.signUp("pat", password: "first password")
            let laptop = try await client.send("/api/auth/login", .post, body: LoginRequest(handle: "pat", password: "first password", tokens: true))
                .decode(AuthResponse.self)
            let wrong = try await client.send(
                "/api/auth/password", .post, as: phone,
                body: ChangePasswordRequest(currentPassword: "not it at all", newPassword: "second password"))
            #expect(wrong.status == .forbidden)
            let changed = try await client.send(
                "/api/auth/password", .post, as: phone,
                body: ChangePasswordRequest(currentPassword: "first password", newPassword: "second password"))
            #expect(changed.status == .noContent)
            #expect(try await client.send("/api/auth/me", .get, as: phone).status == .ok)
            var other = phone
            other.token = laptop.tokens?.accessToken ?? ""
            #expect(try await client.send("/api/auth/me", .get, as: other).status == .unauthorized)
            let old = try await client.send("/api/auth/login", .post, body: LoginRequest(handle: "pat", password: "first password"))
            #expect(old.status == .unauthorized)
            let new = try await client.send("/api/auth/login", .post, body: LoginRequest(handle: "pat", password: "second password"))
            #expect(new.status == .ok)
        }
    }

    @Test func cookieSessionsAreHttpOnlyAndNeedTheCSRFToken() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let signup = try await client.send(
                "/api/auth/signup", .post, body: SignupRequest(handle: "cookie", displayName: "C", password: "long enough"))
            let cookies = signup.headers[values: .setCookie]
            let session = try #require(cookies.first { $0.hasPrefix("wl_session=") })
            #expect(session.contains("HttpOnly"))
            #expect(session.contains("Secure"))
            #expect(session.contains("SameSite=Lax"))
            let auth = try signup.decode(AuthResponse.self)
            #expect(auth.tokens == nil)
            let csrf = try #require(auth.csrfToken)
            let cookie = String(session.split(separator: ";")[0])
            let body = ByteBuffer(bytes: try jsonEncoder.encode(CreateStationRequest(name: "Party")))
            let without = try await client.execute(
                uri: "/api/stations", method: .post, headers: [.cookie: cookie, .contentType: "application/json"], body: body)
            #expect(without.status == .forbidden)
            #expect(without.errorCode == "csrf")
            let forged = try await client.execute(
                uri: "/api/stations", method: .post,
                headers: [.cookie: cookie, .contentType: "application/json", .init("X-CSRF-Token")!: csrf + "x"], body: body)
            #expect(forged.status == .forbidden)
            let with = try await client.execute(
                uri: "/api/stations", method: .post,
                headers: [.cookie: cookie, .contentType: "application/json", .init("X-CSRF-Token")!: csrf], body: body)
            #expect(with.status == .created)
            // Reads need no token.
            let me = try await client.execute(uri: "/api/auth/me", method: .get, headers: [.cookie: cookie])
            #expect(try me.decode(MeResponse.self).csrfToken == csrf)
        }
    }

    @Test func repeatedWrongPasswordsLockTheHandleOut() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            _ = try await client.signUp("locked", password: "the right one")
            for _ in 0..<5 {
                let wrong = try await client.send("/api/auth/login", .post, body: LoginRequest(handle: "locked", password: "wrong wrong"))
                #expect(wrong.status == .unauthorized)
            }
            let refused = try await client.send("/api/auth/login", .post, body: LoginRequest(handle: "locked", password: "the right one"))
            #expect(refused.status == .tooManyRequests)
            #expect(refused.errorCode == "rate_limited")
            #expect(Int(refused.headers[.retryAfter] ?? "") ?? 0 > 0)
        }
    }

    @Test func aGuestWhoSignsUpKeepsTheirMemberships() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let host = try await client.signUp()
            let party = try await client.send(
                "/api/stations", .post, as: host, body: CreateStationRequest(name: "Party", visibility: .code)
            ).decode(CreateStationResponse.self).station
            let code = try await client.send("/api/stations/\(party.id)/code", .get, as: host).decode(CodeView.self)
            let guest = try await client.guest("Gus")
            #expect(guest.person.kind == "guest")
            let joined = try await client.send(
                "/api/frequencies/\(code.frequency!)/join", .post, as: guest, body: JoinRequest(accessCode: code.accessCode))
            #expect(joined.status == .ok)
            let upgraded = try await client.send(
                "/api/auth/signup", .post, as: guest,
                body: SignupRequest(handle: "gus", displayName: "Gus", password: "long enough", tokens: true)
            ).decode(AuthResponse.self)
            #expect(upgraded.person.id == guest.id)
            #expect(upgraded.person.kind == "user")
            var gus = guest
            gus.token = upgraded.tokens?.accessToken ?? ""
            let access = try await client.send("/api/stations/\(party.id)/access", .get, as: gus).decode(StationAccess.self)
            #expect(access.canListen)
            #expect(access.role == .listener)
        }
    }

    @Test func followingPutsFriendsOnYourDialLiveOnesFirst() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let ana = try await client.signUp("ana")
            let bo = try await client.signUp("bob")
            let cy = try await client.signUp("cyd")
            let search = try await client.send("/api/people?q=b", .get, as: ana).decode([PersonView].self)
            #expect(search.map(\.handle) == ["bob"])
            for friend in [bo, cy] {
                let profile = try await client.send("/api/people/\(friend.id)/follow", .put, as: ana).decode(ProfileView.self)
                #expect(profile.youFollow)
                #expect(profile.followers == 1)
            }
            let selfFollow = try await client.send("/api/people/\(ana.id)/follow", .put, as: ana)
            #expect(selfFollow.status == .conflict)
            var dial = try await client.send("/api/dial", .get, as: ana).decode(DialView.self)
            // Quiet public stations of strangers (a `quiet` section) may follow.
            #expect(dial.sections.map(\.kind).filter { $0 != "quiet" } == ["own", "following-quiet"])
            #expect(dial.sections[0].stations.map(\.id) == [ana.stationID])

            // Cy goes on the air: someone tunes in.
            let listener = LiveClient(port: client.port!, path: "/api/stations/\(cy.stationID)/live?v=1")
            _ = try await listener.snapshot()
            dial = try await client.send("/api/dial", .get, as: ana).decode(DialView.self)
            // Cy's station shows once, among friends, not again under discover.
            #expect(dial.sections.map(\.kind).filter { $0 != "quiet" } == ["own", "following-live", "following-quiet"])
            let live = try #require(dial.sections.first { $0.kind == "following-live" })
            #expect(live.stations.map(\.id) == [cy.stationID])
            #expect(live.stations[0].listeners == 1)
            #expect(live.stations[0].nowPlaying != nil)
            let quiet = try #require(dial.sections.first { $0.kind == "following-quiet" })
            #expect(quiet.stations.map(\.id) == [bo.stationID])
            listener.close()

            let unfollowed = try await client.send("/api/people/\(bo.id)/follow", .delete, as: ana).decode(ProfileView.self)
            #expect(!unfollowed.youFollow)
            let following = try await client.send("/api/people/\(ana.id)/following", .get, as: ana).decode([PersonView].self)
            #expect(following.map(\.id) == [cy.id])
        }
    }

    // Reads the SQLite file and its WAL byte by byte.
    @Test(.enabled(if: TestStore.isSQLite)) func noPasswordOrTokenIsStoredInTheClear() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let ana = try await client.signUp("clear", password: "a very secret phrase")
            let database = try Data(contentsOf: URL(fileURLWithPath: server.services.configuration.databasePath))
            let wal = (try? Data(contentsOf: URL(fileURLWithPath: server.services.configuration.databasePath + "-wal"))) ?? Data()
            for secret in ["a very secret phrase", ana.refreshToken] {
                #expect(database.range(of: Data(secret.utf8)) == nil)
                #expect(wal.range(of: Data(secret.utf8)) == nil)
            }
        }
    }
}
