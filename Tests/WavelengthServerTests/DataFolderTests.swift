import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WavelengthServer
import WavelengthWire

/// Another user on the host must not read the database (sessions, members,
/// codes) nor the signing keys, which live in their own file, not in the
/// database, and can be rotated.
@Suite("The data folder and the signing keys", .timeLimit(.minutes(5)))
struct DataFolderTests {
    static func mode(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
    }

    // The SQLite file and its WAL are among the files checked.
    @Test(.enabled(if: TestStore.isSQLite)) func theDataFolderIsTheServersUsersAlone() async throws {
        let data = NSTemporaryDirectory() + "wavelength-modes-\(UUID().uuidString)"
        let files = FileManager.default
        // What an older version left: a world-readable folder and files.
        try files.createDirectory(atPath: data + "/cache", withIntermediateDirectories: true)
        #expect(files.createFile(atPath: data + "/cache/old.mp3", contents: Data([1])))
        for (path, mode) in [(data, 0o755), (data + "/cache", 0o755), (data + "/cache/old.mp3", 0o644)] {
            try files.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        }
        defer { try? files.removeItem(atPath: data) }

        let server = try await TestServer.make(dataDirectory: data)
        try await server.application().test(.router) { client in
            _ = try await client.signUp()  // a write, so the WAL exists
        }
        #expect(Self.mode(data) == 0o700)
        #expect(Self.mode(data + "/cache") == 0o700)
        #expect(Self.mode(data + "/cache/old.mp3") == 0o600)
        #expect(Self.mode(data + "/keys") == 0o700)
        for file in ["wavelength.sqlite", "wavelength.sqlite-wal", "owner-keys.txt", "keys/signing-keys.json"] {
            #expect(Self.mode(data + "/" + file) == 0o600, "\(file)")
        }
        // No key is left in the database.
        #expect(try await server.storage.takeServerSecrets().isEmpty)
    }

    @Test func afterARotationThePreviousKeyStillVerifiesAndTheOneBeforeItDoesNot() async throws {
        let data = NSTemporaryDirectory() + "wavelength-keys-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: data) }
        func me(_ token: String, on server: TestServer) async throws -> HTTPResponse.Status {
            try await server.application().test(.router) { client in
                try await client.execute(
                    uri: "/api/auth/me", method: .get, headers: [.authorization: "Bearer \(token)"]
                ).status
            }
        }
        func rotate() throws {
            var keys = try #require(try SigningKeys.read(dataDirectory: data))
            keys.rotate(now: 1)
            try keys.write(dataDirectory: data)
        }
        let first = try await TestServer.make(dataDirectory: data)
        let early = try await first.application().test(.router) { client in try await client.signUp() }
        #expect(try await me(early.token, on: first) == .ok)

        try rotate()
        let second = try await TestServer.make(dataDirectory: data)
        #expect(try await me(early.token, on: second) == .ok)
        let later = try await second.application().test(.router) { client in try await client.signUp() }
        #expect(try SigningKeys.read(dataDirectory: data)?.jwt.count == SigningKeys.kept)

        try rotate()
        let third = try await TestServer.make(dataDirectory: data)
        #expect(try await me(early.token, on: third) == .unauthorized)
        #expect(try await me(later.token, on: third) == .ok)
    }
}
