import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing
import WavelengthWire

@testable import WavelengthSQLite

/// A full disk is an outage, not a bug: requests that must save are
/// answered 503 with Retry-After, and what was saved stays.
// SQLite's own outages (PostgreSQL's are the store's tests and the cluster's).
@Suite("Storage outages", .enabled(if: TestStore.isSQLite), .timeLimit(.minutes(5)))
struct StorageOutageTests {
    @Test func aFullDatabaseAnswers503AndKeepsWhatWasSaved() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let ana = try await client.signUp()
            // SQLite's own way to make the file full: no page beyond those it has.
            try await #require(server.database).writer.writeWithoutTransaction { db in
                let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 1
                try db.execute(sql: "PRAGMA max_page_count = \(pages)")
            }
            var refused: TestResponse?
            for n in 0..<50 {
                let response = try await client.send(
                    "/api/auth/signup", .post,
                    body: SignupRequest(handle: TestHandles.next("full\(n)"), displayName: "Full \(n)", password: "correct horse", tokens: true))
                if response.status != .created {
                    refused = response
                    break
                }
            }
            let answer = try #require(refused)
            #expect(answer.status == .serviceUnavailable)
            #expect(answer.errorCode == "service_unavailable")
            #expect(answer.headers[.retryAfter] == "60")
            // What was saved before is still there.
            #expect(try await client.send("/api/auth/me", .get, as: ana).decode(MeResponse.self).person?.id == ana.id)
        }
    }

    /// A chat message and a DJ's command over the station's socket, with
    /// storage out of service (a full or read-only disk):
    /// `service_unavailable` as over HTTP (it said `internal`).
    @Test func aFullDatabaseRefusesChatAndCommandsOnTheSocketAsUnavailable() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let owner = try await client.signUp()
            let socket = LiveClient(port: client.port!, path: "/api/stations/\(owner.stationID)/live?v=1", token: owner.token)
            defer { socket.close() }
            _ = try await socket.snapshot()
            try socket.send(.chat(id: "before", text: "saved before"))
            _ = try await socket.next { if case .chat(_, "before") = $0 { true } else { false } }
            // Out of service: every write refused as SQLite refuses one to a
            // disk it can't write (SQLITE_READONLY, an outage like SQLITE_FULL,
            // and certain at once, where a full file still fits a small row
            // in a page it has).
            try await #require(server.database).writer.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA query_only = 1")
            }
            try socket.send(.chat(id: "full", text: String(repeating: "filling the disk ", count: 17)))
            let answer = try await socket.next {
                switch $0 {
                case .chat(_, "full"), .error("full", _, _): true
                default: false
                }
            }
            var code = ""
            if case .error(_, let refusal, _) = answer { code = refusal }
            #expect(code == "service_unavailable")
            let track = try await client.firstTrack(matching: "a")
            try socket.send(.command(CommandRequest(id: "append-full", command: .append(trackID: track.id))))
            let refused = try await socket.next { if case .error("append-full", _, _) = $0 { true } else if case .ack = $0 { true } else { false } }
            if case .error(_, let refusal, _) = refused { #expect(refusal == "service_unavailable") }
        }
    }
}
