import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Subprocess
import Testing
import WavelengthCore
import WavelengthWire

@testable import WavelengthServer

/// `/metrics` as Prometheus reads it, and who may read it.
@Suite("Prometheus metrics", .timeLimit(.minutes(5)))
struct MetricsTests {
    static func page(_ client: some TestClientProtocol, token: String? = nil) async throws -> TestResponse {
        var headers: HTTPFields = [:]
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await client.execute(uri: "/metrics", method: .get, headers: headers)
    }

    @Test func listenersPerStationAndKindCommandsAndStreamFigures() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let host = try await client.signUp()
            let station = host.stationID
            let port = client.port!
            let app = LiveClient(port: port, path: "/api/stations/\(station)/live?v=1", token: host.token)
            _ = try await app.snapshot()
            let player = try await StreamPlayerSocket.open(port: port, path: "/stream/\(station).mp3", userAgent: "VLC")
            try await app.listeners(2)
            // Whatever plays now: a song named by id may end (they last
            // seconds here) before the skip arrives, and be refused.
            let skipped = try await client.send(
                "/api/stations/\(station)/commands", .post, as: host,
                body: CommandRequest(id: "metrics-skip", command: .skip(entryID: nil)))
            #expect(skipped.status == .ok)

            let response = try await Self.page(client)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
            let text = String(buffer: response.body)
            let lines = Set(text.split(separator: "\n").map(String.init))
            #expect(lines.contains("wavelength_listeners{station=\"\(station)\",kind=\"people\"} 2.0"), "\(text)")
            #expect(lines.contains("wavelength_listeners{station=\"\(station)\",kind=\"app\"} 1.0"))
            #expect(lines.contains("wavelength_listeners{station=\"\(station)\",kind=\"stream\"} 1.0"))
            #expect(lines.contains("wavelength_stream_encoders 1.0"))
            #expect(lines.contains("wavelength_commands_total 1"))
            let bytes = try #require(lines.first { $0.hasPrefix("wavelength_stream_bytes_total ") })
            #expect((Int(bytes.split(separator: " ")[1]) ?? 0) > 0)
            // Prometheus's own linter reads the page as a scraper would: every
            // series has its HELP and TYPE, and every name is well formed.
            let lint = try await Subprocess.run(
                .name("promtool"), arguments: ["check", "metrics"], input: .string(text),
                output: .string(limit: 1 << 16), error: .string(limit: 1 << 16))
            #expect(lint.terminationStatus.isSuccess, "promtool: \(lint.standardOutput) \(lint.standardError)")
            withExtendedLifetime(player) {}
        }
    }

    /// Through a trusted proxy a request is the client's, not this
    /// machine's; and a wrong token is no token.
    @Test func onlyThisMachineOrTheTokenMayRead() async throws {
        let token = "a-metrics-token-for-tests"
        let server = try await TestServer.make {
            $0.metricsToken = token
            $0.trustedProxies = ["127.0.0.1"]
        }
        try await server.application().test(.live) { client in
            #expect(try await Self.page(client).status == .ok)
            let forwarded = try await client.execute(
                uri: "/metrics", method: .get, headers: [HTTPField.Name("X-Forwarded-For")!: "203.0.113.9"])
            #expect(forwarded.status == .forbidden)
            #expect(forwarded.errorCode == "forbidden")
            let wrong = try await client.execute(
                uri: "/metrics", method: .get,
                headers: [HTTPField.Name("X-Forwarded-For")!: "203.0.113.9", .authorization: "Bearer nope"])
            #expect(wrong.status == .forbidden)
            let right = try await client.execute(
                uri: "/metrics", method: .get,
                headers: [HTTPField.Name("X-Forwarded-For")!: "203.0.113.9", .authorization: "Bearer \(token)"])
            #expect(right.status == .ok)
        }
    }
}
