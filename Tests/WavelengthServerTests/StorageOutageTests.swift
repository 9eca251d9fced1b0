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
}
