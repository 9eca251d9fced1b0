import AsyncHTTPClient
import Foundation
import Testing
import WavelengthWire

/// `wavelength backup` and `restore`, run as an operator runs them: real
/// server processes on real SQLite files.
@Suite("Backup and restore", .enabled(if: TestStore.isSQLite), .timeLimit(.minutes(5)))
struct BackupTests {
    /// A backup made while the server runs and writes is one instant of it;
    /// restored into a new data folder, its people sign in with their
    /// passwords, and the tokens they held before still work (the keys came
    /// with it).
    @Test func aBackupMadeWhileTheServerRunsRestoresThatInstantWithItsKeys() async throws {
        let libraries = try await TestLibrary.shared.roots()
        let first = try Self.folder(), second = try Self.folder(), spare = try Self.folder()
        defer { for folder in [first, second, spare] { try? FileManager.default.removeItem(atPath: folder) } }
        let backup = spare + "/community.wavelength-backup"
        let before = Self.signup(), after = Self.signup()

        let token = try await ServerProcess.run(dataDirectory: first, libraries: libraries) { server in
            let auth = try await Self.send(before, to: server)
            let made = try await ServerProcess.command(["backup", "--to", backup, "--data", first])
            #expect(made.status == 0, "\(made.output)")
            #expect(made.output.contains("Backed up 1 people"), "\(made.output)")
            // The server goes on, and what it saves now is not in the backup.
            _ = try await Self.send(after, to: server)
            // It never overwrites: the same name again is refused.
            let again = try await ServerProcess.command(["backup", "--to", backup, "--data", first])
            #expect(again.status != 0 && again.output.contains("never overwrites"), "\(again.output)")
            // Nor is a database restored from under a running server.
            let underIt = try await ServerProcess.command(["restore", "--from", backup, "--data", first])
            #expect(underIt.status != 0 && underIt.output.contains("stop it first"), "\(underIt.output)")
            return try #require(auth.tokens?.accessToken)
        }.answer
        #expect(try Self.mode(of: backup) == 0o600)

        let restored = try await ServerProcess.command(["restore", "--from", backup, "--data", second])
        #expect(restored.status == 0, "\(restored.output)")
        #expect(try Self.mode(of: second + "/keys") == 0o700)
        _ = try await ServerProcess.run(dataDirectory: second, libraries: libraries) { server in
            let me = try await HTTPClient.shared.send(.GET, server.baseURL + "/api/auth/me", key: token)
            #expect(me.status == .ok, "a token from before the backup")
            let signIn = try JSONEncoder().encode(LoginRequest(handle: before.handle, password: before.password, tokens: true))
            #expect(try await HTTPClient.shared.send(.POST, server.baseURL + "/api/auth/login", body: signIn).status == .ok)
            let later = try JSONEncoder().encode(LoginRequest(handle: after.handle, password: after.password, tokens: true))
            #expect(try await HTTPClient.shared.send(.POST, server.baseURL + "/api/auth/login", body: later).status == .unauthorized)
        }
    }

    /// A restore over a community moves what was there aside, and a file
    /// that isn't a whole backup changes nothing.
    @Test func aRestoreKeepsWhatWasThereAndRefusesWhatIsNotABackup() async throws {
        let libraries = try await TestLibrary.shared.roots()
        let data = try Self.folder(), spare = try Self.folder()
        defer { for folder in [data, spare] { try? FileManager.default.removeItem(atPath: folder) } }
        let backup = spare + "/backup"
        let person = Self.signup()
        _ = try await ServerProcess.run(dataDirectory: data, libraries: libraries) { server in
            _ = try await Self.send(person, to: server)
            #expect(try await ServerProcess.command(["backup", "--to", backup, "--data", data]).status == 0)
        }
        let database = data + "/wavelength.sqlite"
        let original = try Data(contentsOf: URL(fileURLWithPath: database))

        // Not a backup: a text file, a truncated backup, a SQLite file of another program.
        let text = spare + "/notes.txt"
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: text))
        let truncated = spare + "/truncated"
        try Data(try Data(contentsOf: URL(fileURLWithPath: backup)).prefix(8192)).write(to: URL(fileURLWithPath: truncated))
        for (file, said) in [(text, "is not a Wavelength backup"), (truncated, "backup"), (database, "is not a Wavelength backup")] {
            let refused = try await ServerProcess.command(["restore", "--from", file, "--data", data])
            #expect(refused.status != 0, "\(file)")
            #expect(refused.output.contains(said), "\(refused.output)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == original, "\(file) changed the database")
        }

        let restored = try await ServerProcess.command(["restore", "--from", backup, "--data", data])
        #expect(restored.status == 0, "\(restored.output)")
        let aside = try #require(
            try FileManager.default.contentsOfDirectory(atPath: data).first { $0.hasPrefix("wavelength.sqlite.before-restore-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") })
        #expect(restored.output.contains(aside), "\(restored.output)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: data).contains { $0.hasPrefix("keys.before-restore-") })
        _ = try await ServerProcess.run(dataDirectory: data, libraries: libraries) { server in
            let signIn = try JSONEncoder().encode(LoginRequest(handle: person.handle, password: person.password, tokens: true))
            #expect(try await HTTPClient.shared.send(.POST, server.baseURL + "/api/auth/login", body: signIn).status == .ok)
        }
    }

    /// Two servers never share one database file.
    @Test func aSecondServerOnTheSameDataFolderIsRefused() async throws {
        let libraries = try await TestLibrary.shared.roots()
        let data = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: data) }
        _ = try await ServerProcess.run(dataDirectory: data, libraries: libraries) { _ in
            let second = try await ServerProcess.command(["serve", "--data", data, "--port", "0", "--no-mdns", "--source-port=-1"])
            #expect(second.status != 0)
            #expect(second.output.contains("A Wavelength server is using"), "\(second.output)")
        }
    }

    @Test func aPostgresCommunityIsSentToPgDump() async throws {
        let answer = try await ServerProcess.command(["backup", "--to", "/tmp/x", "--database", "postgres://u@localhost/db"])
        #expect(answer.status != 0 && answer.output.contains("pg_dump"), "\(answer.output)")
    }

    private static func signup() -> SignupRequest {
        SignupRequest(handle: TestHandles.next("b"), displayName: "Backed Up", password: "correct horse", tokens: true)
    }

    private static func send(_ signup: SignupRequest, to server: ServerProcess) async throws -> AuthResponse {
        let made = try await HTTPClient.shared.send(.POST, server.baseURL + "/api/auth/signup", body: try JSONEncoder().encode(signup))
        #expect(made.status == .created)
        return try JSONDecoder().decode(AuthResponse.self, from: made.body)
    }

    private static func folder() throws -> String {
        let folder = NSTemporaryDirectory() + "wavelength-backup-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return folder
    }

    private static func mode(of path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int ?? 0) & 0o777
    }
}

/// `wavelength admin` from the host's shell, while the server runs.
@Suite("Administrators from the shell", .enabled(if: TestStore.isSQLite), .timeLimit(.minutes(5)))
struct AdminCommandTests {
    @Test func theShellGrantsAndRevokesAndTheServerHeedsItAtOnce() async throws {
        let libraries = try await TestLibrary.shared.roots()
        let data = NSTemporaryDirectory() + "wavelength-admin-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: data) }
        _ = try await ServerProcess.run(dataDirectory: data, libraries: libraries) { server in
            let handle = TestHandles.next("a")
            let signup = SignupRequest(handle: handle, displayName: "Operator", password: "correct horse", tokens: true)
            let made = try await HTTPClient.shared.send(.POST, server.baseURL + "/api/auth/signup", body: try JSONEncoder().encode(signup))
            let token = try #require(try JSONDecoder().decode(AuthResponse.self, from: made.body).tokens?.accessToken)
            let audit = server.baseURL + "/api/admin/audit"
            #expect(try await HTTPClient.shared.send(.GET, audit, key: token).status == .forbidden)

            let granted = try await ServerProcess.command(["admin", "grant", "@" + handle, "--data", data, "--reason", "runs the station"])
            #expect(granted.status == 0 && granted.output.contains("is an administrator now"), "\(granted.output)")
            let log = try await HTTPClient.shared.send(.GET, audit, key: token)
            #expect(log.status == .ok)
            let entries = try JSONDecoder().decode([AuditEntryView].self, from: log.body)
            #expect(entries.first?.action == "grant-admin" && entries.first?.actorID == nil && entries.first?.reason == "runs the station")
            #expect(try await ServerProcess.command(["admin", "list", "--data", data]).output.contains("@" + handle))

            let nobody = try await ServerProcess.command(["admin", "grant", "nobody_here", "--data", data])
            #expect(nobody.status != 0 && nobody.output.contains("No account has the handle"), "\(nobody.output)")

            #expect(try await ServerProcess.command(["admin", "revoke", handle, "--data", data]).status == 0)
            #expect(try await HTTPClient.shared.send(.GET, audit, key: token).status == .forbidden)
        }
    }
}

/// What an administrator was told is done stays done through a `kill -9`.
@Suite("Admin actions survive a crash", .enabled(if: TestStore.isSQLite), .timeLimit(.minutes(5)))
struct AdminCrashTests {
    @Test func aSuspensionAckedBeforeAKillIsThereAfterTheRestart() async throws {
        let libraries = try await TestLibrary.shared.roots()
        let data = NSTemporaryDirectory() + "wavelength-admin-crash-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: data) }
        let admin = TestHandles.next("a"), subject = TestHandles.next("s")
        let (adminToken, subjectID) = try await ServerProcess.run(dataDirectory: data, libraries: libraries) { server in
            var tokens: [String: (token: String, id: String)] = [:]
            for handle in [admin, subject] {
                let signup = SignupRequest(handle: handle, displayName: handle, password: "correct horse", tokens: true)
                let made = try await HTTPClient.shared.send(.POST, server.baseURL + "/api/auth/signup", body: try JSONEncoder().encode(signup))
                let auth = try JSONDecoder().decode(AuthResponse.self, from: made.body)
                tokens[handle] = (try #require(auth.tokens?.accessToken), auth.person.id)
            }
            #expect(try await ServerProcess.command(["admin", "grant", admin, "--data", data]).status == 0)
            let (token, subjectID) = (try #require(tokens[admin]?.token), try #require(tokens[subject]?.id))
            let suspended = try await HTTPClient.shared.send(
                .POST, server.baseURL + "/api/admin/people/\(subjectID)/suspend",
                body: try JSONEncoder().encode(AdminActionRequest(reason: "spam")), key: token)
            #expect(suspended.status == .ok)
            await server.kill9()
            return (token, subjectID)
        }.answer
        _ = try await ServerProcess.run(dataDirectory: data, libraries: libraries) { server in
            let login = try JSONEncoder().encode(LoginRequest(handle: subject, password: "correct horse", tokens: true))
            #expect(try await HTTPClient.shared.send(.POST, server.baseURL + "/api/auth/login", body: login).status == .forbidden)
            let log = try await HTTPClient.shared.send(.GET, server.baseURL + "/api/admin/audit", key: adminToken)
            let entries = try JSONDecoder().decode([AuditEntryView].self, from: log.body)
            #expect(entries.first?.action == "suspend" && entries.first?.subjectID == subjectID)
        }
    }
}
