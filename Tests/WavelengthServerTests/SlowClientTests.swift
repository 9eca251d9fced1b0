import Foundation
import HummingbirdTesting
import Testing
import WavelengthWire

@testable import WavelengthServer

/// Slowloris on the main port: a connection that never finishes its first
/// request head (nothing, half a head, a head dripped a byte at a time) is
/// closed at the head deadline, and an idle kept-alive one after the
/// keep-alive timeout; connections that did send their head are left be.
@Suite("Slow clients")
struct SlowClientTests {
    @Test func headsNeverFinishedAreClosedAndFinishedOnesAreNot() async throws {
        let server = try await TestServer.make(configure: {
            $0.requestHeadTimeout = .seconds(2)
            $0.keepAliveTimeout = .seconds(4)
        })
        try await server.application().test(.live) { client in
            let port = try #require(client.port)
            let owner = try await client.signUp()
            // A live socket upgraded in time is past the deadline for good.
            let live = LiveClient(port: port, path: "/api/stations/\(owner.stationID)/live?v=2")
            _ = try await live.snapshot()

            let silent = try await SourceSocket(port: port)
            let halfStream = try await SourceSocket(port: port)
            try await halfStream.send("GET /stream/\(owner.stationID) HTTP/1.1\r\n")
            let halfRequest = try await SourceSocket(port: port)
            try await halfRequest.send("GET /api/stations HTTP/1.1\r\nHost: localhost\r\n")
            #expect(try await silent.rest().closed)
            #expect(try await halfStream.rest().closed)
            #expect(try await halfRequest.rest().closed)

            // A byte every half second still ends at the deadline: it is
            // not an idle timer a drip renews.
            let drip = try await SourceSocket(port: port)
            let dripping = Task {
                for byte in "GET /api/stations HTTP/1.1\r\nHost: localhost\r\nX-Padding: ".utf8 + Array(repeating: UInt8(ascii: "a"), count: 200) {
                    try await drip.send([byte])
                    try await Task.sleep(for: .milliseconds(500))
                }
            }
            #expect(try await drip.rest().closed)
            dripping.cancel()

            // A kept-alive connection answered, then idle, is closed after
            // the keep-alive timeout (and answered again until then).
            let kept = try await SourceSocket(port: port)
            try await kept.send("GET /status-json.xsl HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(try await kept.answerHead().hasPrefix("HTTP/1.1 "))
            #expect(try await kept.rest().closed)

            // The live socket, upgraded before any of this, still answers.
            try live.send(.ping(nonce: "still-here"))
            let pong = try await live.next { if case .pong(let nonce, _, _, _) = $0 { nonce == "still-here" } else { false } }
            if case .pong = pong {} else { Issue.record("no pong: \(pong)") }
        }
    }
}
