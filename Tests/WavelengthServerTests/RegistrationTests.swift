import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WavelengthCore
import WavelengthStore
import WavelengthWire

@testable import WavelengthServer

/// Who may sign up, over HTTP, in each of the four modes: what a sign-up
/// gets, what the person is told, what an administrator does about it,
/// and that guests get in whatever the mode.
@Suite("Registration modes", .timeLimit(.minutes(5)))
struct RegistrationTests {
    static func setMode(
        _ mode: RegistrationMode, membersMayInvite: Bool = false, by admin: TestAccount, _ client: some TestClientProtocol
    ) async throws {
        let answer = try await client.send(
            "/api/admin/registration", .put, as: admin,
            body: RegistrationSettingsRequest(mode: mode.rawValue, membersMayInvite: membersMayInvite, reason: "testing"))
        #expect(answer.status == .ok)
        #expect(try answer.decode(AdminRegistrationView.self).mode == mode.rawValue)
    }

    static func signup(_ handle: String, invite: String? = nil) -> SignupRequest {
        SignupRequest(handle: handle, displayName: handle, password: "correct horse", tokens: true, invite: invite)
    }

    static func error(_ response: TestResponse) -> String {
        (try? response.decode(ErrorBody.self))?.error.code ?? "none"
    }

    @Test func aLoopbackServerIsOpenAndOneThatListensBeyondWaitsForApproval() {
        #expect(ServerConfiguration(host: "127.0.0.1").defaultRegistration.mode == .open)
        #expect(ServerConfiguration(host: "localhost").defaultRegistration.mode == .open)
        #expect(ServerConfiguration(host: "::1").defaultRegistration.mode == .open)
        #expect(ServerConfiguration(host: "0.0.0.0").defaultRegistration.mode == .approval)
        #expect(ServerConfiguration(host: "::").defaultRegistration.mode == .approval)
        #expect(ServerConfiguration(host: "192.168.1.20").defaultRegistration.mode == .approval)
        #expect(ServerConfiguration(host: "radio.example.edu").defaultRegistration.mode == .approval)
    }

    @Test func theSignupPageIsToldTheModeAndAClosedServerStillLetsGuestsIn() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let admin = try await client.signUp()
            try await AdminTests.grant(server, admin)
            let page = try await client.send("/api/auth/registration", .get).decode(RegistrationView.self)
            #expect(page.mode == "open" && page.invite == nil)

            try await Self.setMode(.closed, by: admin, client)
            let refused = try await client.send("/api/auth/signup", .post, body: Self.signup(TestHandles.next()))
            #expect(refused.status == .forbidden && Self.error(refused) == "registration_closed")
            #expect(try await client.send("/api/auth/registration", .get).decode(RegistrationView.self).mode == "closed")
            // The party needs no account, in any mode.
            _ = try await client.guest("Party guest")
            // Nor do invites open a closed server.
            let invite = try await client.send(
                "/api/server-invites", .post, as: admin, body: NewServerInviteRequest(maxUses: 1, expiresInHours: 1))
            #expect(invite.status == .forbidden)
            // Who changed it, and why, is in the log.
            let log = try await client.send("/api/admin/audit", .get, as: admin).decode([AuditEntryView].self)
            #expect(log.first?.action == "set-registration" && log.first?.actorID == admin.id)
        }
    }

    /// Approval: the sign-up is kept without a station or a session; the
    /// person is told at sign-up and at sign-in; an approval lets them in
    /// with their station, a decline frees the handle.
    @Test func anApprovedSignupSignsInWithItsStationAndADeclinedOneFreesTheHandle() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let admin = try await client.signUp(), member = try await client.signUp()
            try await AdminTests.grant(server, admin)
            try await Self.setMode(.approval, by: admin, client)
            let (kept, turned) = (TestHandles.next("k"), TestHandles.next("d"))
            for handle in [kept, turned] {
                let waiting = try await client.send("/api/auth/signup", .post, body: Self.signup(handle))
                #expect(waiting.status == .accepted)
                let body = try waiting.decode(SignupWaitingResponse.self)
                #expect(body.awaitingApproval && body.handle == handle)
            }
            // The handle is held while it waits.
            let twice = try await client.send("/api/auth/signup", .post, body: Self.signup(kept))
            #expect(twice.status == .conflict && Self.error(twice) == "handle_taken")
            // Sign-in says it waits, only to the right password.
            let early = try await client.send("/api/auth/login", .post, body: LoginRequest(handle: kept, password: "correct horse", tokens: true))
            #expect(early.status == .forbidden && Self.error(early) == "awaiting_approval")
            let wrong = try await client.send("/api/auth/login", .post, body: LoginRequest(handle: kept, password: "wrong horse", tokens: true))
            #expect(wrong.status == .unauthorized)

            // Only administrators see and decide.
            #expect(try await client.send("/api/admin/registration", .get, as: member).status == .forbidden)
            let queue = try await client.send("/api/admin/registration", .get, as: admin).decode(AdminRegistrationView.self)
            #expect(queue.waiting.map(\.handle) == [kept, turned])
            let (keptID, turnedID) = (queue.waiting[0].id, queue.waiting[1].id)
            #expect(try await client.send("/api/admin/people/\(keptID)/approve", .post, as: member).status == .forbidden)
            let approved = try await client.send("/api/admin/people/\(keptID)/approve", .post, as: admin)
            #expect(approved.status == .ok)
            #expect(try approved.decode(AdminRegistrationView.self).waiting.map(\.id) == [turnedID])
            #expect(try await client.send("/api/admin/people/\(keptID)/approve", .post, as: admin).status == .notFound)
            let declined = try await client.send(
                "/api/admin/people/\(turnedID)/decline", .post, as: admin, body: AdminActionRequest(reason: "not a student"))
            #expect(try declined.decode(AdminRegistrationView.self).waiting.isEmpty)

            // Approved: in, with a station of their own.
            let login = try await client.send("/api/auth/login", .post, body: LoginRequest(handle: kept, password: "correct horse", tokens: true))
            #expect(login.status == .ok)
            let auth = try login.decode(AuthResponse.self)
            #expect(auth.station?.frequency != nil && auth.person.stationID == auth.station?.id)
            // Declined: the handle is free again (and waits again).
            #expect(try await client.send("/api/auth/signup", .post, body: Self.signup(turned)).status == .accepted)
            let log = try await client.send("/api/admin/audit", .get, as: admin).decode([AuditEntryView].self)
            #expect(log.prefix(2).map(\.action) == ["decline-signup", "approve-signup"])
            #expect(log[0].reason == "not a student" && log[0].subjectName == "@\(turned)")
        }
    }

    /// Invite: a sign-up needs a usable invite, each use is counted once
    /// even when sign-ups race for the last, and a failed sign-up gives its
    /// use back. In approval mode an invite skips the wait.
    @Test func invitesLetPeopleInAsManyTimesAsTheySay() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let admin = try await client.signUp(), member = try await client.signUp()
            try await AdminTests.grant(server, admin)
            try await Self.setMode(.invite, by: admin, client)
            let none = try await client.send("/api/auth/signup", .post, body: Self.signup(TestHandles.next()))
            #expect(none.status == .forbidden && Self.error(none) == "invite_required")
            // Members may not invite until an administrator allows it.
            let asked = NewServerInviteRequest(maxUses: 3, expiresInHours: 24)
            #expect(try await client.send("/api/server-invites", .post, as: member, body: asked).status == .forbidden)
            #expect(try await client.send("/api/server-invites", .get, as: member).decode(ServerInvitesResponse.self).mayInvite == false)
            try await Self.setMode(.invite, membersMayInvite: true, by: admin, client)
            let made = try await client.send("/api/server-invites", .post, as: member, body: asked)
            #expect(made.status == .created)
            let invite = try made.decode(ServerInviteView.self)
            let code = try #require(invite.code)
            #expect(invite.url == "/#/signup?invite=\(code)")
            // The page can check it without using it.
            let checked = try await client.send("/api/auth/registration?invite=\(code)", .get).decode(RegistrationView.self)
            #expect(checked.invite?.valid == true && checked.invite?.from == member.person.displayName)
            #expect(try await client.send("/api/auth/registration?invite=nope", .get).decode(RegistrationView.self).invite?.valid == false)

            // A taken handle doesn't use the invite up.
            let taken = try await client.send("/api/auth/signup", .post, body: Self.signup(member.person.handle!, invite: code))
            #expect(taken.status == .conflict)
            // Eight sign-ups race for three uses: three get in.
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await client.send("/api/auth/signup", .post, body: Self.signup(TestHandles.next("i"), invite: code)).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .created }.count == 3)
            #expect(statuses.filter { $0 == .forbidden }.count == 5)
            let mine = try await client.send("/api/server-invites", .get, as: member).decode(ServerInvitesResponse.self)
            #expect(mine.mayInvite && mine.invites.map(\.uses) == [3] && mine.invites[0].code == nil)

            // Withdrawn: no one else gets in with it; only its maker (or an admin) withdraws.
            let second = try await client.send("/api/server-invites", .post, as: member, body: asked).decode(ServerInviteView.self)
            let other = try await client.signUp(invite: try #require(second.code))
            #expect(try await client.send("/api/server-invites/\(second.id)", .delete, as: other).status == .notFound)
            #expect(try await client.send("/api/server-invites/\(second.id)", .delete, as: member).status == .noContent)
            let late = try await client.send("/api/auth/signup", .post, body: Self.signup(TestHandles.next(), invite: second.code))
            #expect(late.status == .forbidden && Self.error(late) == "invalid_invite")

            // In approval mode an invite skips the wait; without one, it waits.
            try await Self.setMode(.approval, membersMayInvite: true, by: admin, client)
            let third = try await client.send("/api/server-invites", .post, as: member, body: asked).decode(ServerInviteView.self)
            #expect(try await client.send("/api/auth/signup", .post, body: Self.signup(TestHandles.next(), invite: third.code)).status == .created)
            #expect(try await client.send("/api/auth/signup", .post, body: Self.signup(TestHandles.next())).status == .accepted)
        }
    }

    /// A member holds a bounded number of usable invites; bad numbers are 400s.
    @Test func invitesAreBoundedPerMemberAndChecked() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let admin = try await client.signUp(), member = try await client.signUp()
            try await AdminTests.grant(server, admin)
            try await Self.setMode(.invite, membersMayInvite: true, by: admin, client)
            for bad in [NewServerInviteRequest(maxUses: 0, expiresInHours: 1), NewServerInviteRequest(maxUses: 101, expiresInHours: 1),
                        NewServerInviteRequest(maxUses: 1, expiresInHours: 0), NewServerInviteRequest(maxUses: 1, expiresInHours: 721)] {
                #expect(try await client.send("/api/server-invites", .post, as: member, body: bad).status == .badRequest)
            }
            let one = NewServerInviteRequest(maxUses: 1, expiresInHours: 1)
            for _ in 0..<RegistrationLimits.invitesPerMember {
                #expect(try await client.send("/api/server-invites", .post, as: member, body: one).status == .created)
            }
            let over = try await client.send("/api/server-invites", .post, as: member, body: one)
            #expect(over.status == .tooManyRequests && Self.error(over) == "invite_limit")
            // An administrator's limit is their own.
            #expect(try await client.send("/api/server-invites", .post, as: admin, body: one).status == .created)
            #expect(try await client.send("/api/server-invites", .post).status == .unauthorized)
            let bad = try await client.send("/api/admin/registration", .put, as: admin, body: RegistrationSettingsRequest(mode: "party"))
            #expect(bad.status == .badRequest)
        }
    }
}

/// `serve --registration` and the default for where it listens, in a real
/// process; and an approval acknowledged before a `kill -9` is there after
/// the restart, with its audit entry and the person's station.
@Suite("Registration in a real process", .enabled(if: TestStore.isSQLite), .timeLimit(.minutes(5)))
struct RegistrationProcessTests {
    @Test func anApprovalAckedBeforeAKillIsThereAfterTheRestart() async throws {
        let libraries = try await TestLibrary.shared.roots()
        let data = NSTemporaryDirectory() + "wavelength-approval-crash-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: data) }
        let admin = TestHandles.next("a"), newcomer = TestHandles.next("n")
        _ = try await ServerProcess.run(
            dataDirectory: data, libraries: libraries, extraArguments: ["--registration", "approval"]
        ) { server in
            #expect(server.log.text.contains("Sign-ups: approval;"))
            let waiting = try await HTTPClient.shared.send(
                .POST, server.baseURL + "/api/auth/signup", body: try JSONEncoder().encode(RegistrationTests.signup(admin)))
            #expect(waiting.status == .accepted)
            let queued = try await HTTPClient.shared.send(
                .POST, server.baseURL + "/api/auth/signup", body: try JSONEncoder().encode(RegistrationTests.signup(newcomer)))
            #expect(queued.status == .accepted)
            await server.kill9()
        }
        // Waiting sign-ups survive a crash too; the shell approves the first administrator.
        _ = try await ServerProcess.run(dataDirectory: data, libraries: libraries) { server in
            // The stored mode holds without the flag.
            #expect(server.log.text.contains("Sign-ups: approval;"))
            #expect(try await ServerProcess.command(["admin", "grant", admin, "--data", data]).status == 0)
            let login = try JSONEncoder().encode(LoginRequest(handle: admin, password: "correct horse", tokens: true))
            let signedIn = try await HTTPClient.shared.send(.POST, server.baseURL + "/api/auth/login", body: login)
            #expect(signedIn.status == .ok)
            let token = try #require(try JSONDecoder().decode(AuthResponse.self, from: signedIn.body).tokens?.accessToken)
            let queue = try JSONDecoder().decode(
                AdminRegistrationView.self,
                from: try await HTTPClient.shared.send(.GET, server.baseURL + "/api/admin/registration", key: token).body)
            let id = try #require(queue.waiting.first { $0.handle == newcomer }?.id)
            let approved = try await HTTPClient.shared.send(.POST, server.baseURL + "/api/admin/people/\(id)/approve", key: token)
            #expect(approved.status == .ok)
            await server.kill9()
        }
        _ = try await ServerProcess.run(dataDirectory: data, libraries: libraries) { server in
            let login = try JSONEncoder().encode(LoginRequest(handle: newcomer, password: "correct horse", tokens: true))
            let signedIn = try await HTTPClient.shared.send(.POST, server.baseURL + "/api/auth/login", body: login)
            #expect(signedIn.status == .ok)
            #expect(try JSONDecoder().decode(AuthResponse.self, from: signedIn.body).station?.frequency != nil)
        }
    }

    @Test func aServerThatListensBeyondThisMachineStartsInApprovalAndSaysSo() async throws {
        let data = NSTemporaryDirectory() + "wavelength-approval-host-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: data) }
        _ = try await ServerProcess.run(
            dataDirectory: data, libraries: try await TestLibrary.shared.roots(), extraArguments: ["--host", "0.0.0.0"]
        ) { server in
            #expect(server.log.text.contains("Sign-ups: approval (the default for a server that listens beyond this machine"))
            let page = try await HTTPClient.shared.send(.GET, server.baseURL + "/api/auth/registration")
            #expect(try JSONDecoder().decode(RegistrationView.self, from: page.body).mode == "approval")
        }
    }
}
