import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WavelengthWire

/// Random bytes and random valid-looking messages must never crash the
/// server, hang a connection, or leave the timeline inconsistent.
@Suite("Protocol fuzzing", .timeLimit(.minutes(5)))
struct ProtocolFuzzTests {
    static let ops = ["append", "queueNext", "remove", "skip", "move", "pause", "resume", "seek", "explode", ""]
    static let types = ["command", "ping", "resync", "hello", "", "COMMAND"]

    static func randomValue(_ rng: inout SeededRandom, depth: Int = 0) -> Any {
        switch Int.random(in: 0..<(depth > 2 ? 4 : 6), using: &rng) {
        case 0: return Int.random(in: -1_000_000...1_000_000, using: &rng)
        case 1: return String((0..<Int.random(in: 0...20, using: &rng)).map { _ in Character(UnicodeScalar(UInt8.random(in: 32...126, using: &rng))) })
        case 2: return Bool.random(using: &rng)
        case 3: return NSNull()
        case 4: return (0..<Int.random(in: 0...3, using: &rng)).map { _ in randomValue(&rng, depth: depth + 1) }
        default:
            return Dictionary(uniqueKeysWithValues: (0..<Int.random(in: 0...3, using: &rng)).map { i in ("k\(i)", randomValue(&rng, depth: depth + 1)) })
        }
    }

    static func message(_ rng: inout SeededRandom, entryIDs: [String], trackIDs: [String]) -> String {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0:
            // Arbitrary printable noise.
            return String((0..<Int.random(in: 0...200, using: &rng)).map { _ in Character(UnicodeScalar(UInt8.random(in: 1...127, using: &rng))) })
        case 1:
            var object: [String: Any] = ["type": types.randomElement(using: &rng)!]
            for key in ["id", "command", "nonce", "epoch", "extra"] where Bool.random(using: &rng) {
                object[key] = randomValue(&rng)
            }
            return String(decoding: try! JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        default:
            // A well-formed command with plausible or bogus ids and numbers.
            var command: [String: Any] = ["op": ops.randomElement(using: &rng)!]
            command["trackID"] = (trackIDs + ["nope", ""]).randomElement(using: &rng)!
            command["entryID"] = (entryIDs + ["nope", String(repeating: "x", count: 70)]).randomElement(using: &rng)!
            command["toIndex"] = Int.random(in: -3...10, using: &rng)
            command["positionMs"] = Int.random(in: -5_000...500_000, using: &rng)
            let object: [String: Any] = [
                "type": "command", "id": "f\(UInt32.random(in: 0...UInt32.max, using: &rng))", "command": command,
            ]
            return String(decoding: try! JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        }
    }

    @Test func randomMessagesNeverBreakTheServer() async throws {
        // The server reads a client's pongs in line with its messages, so it
        // sees this client's pong only after it has handled the 420 frames
        // before it, which takes seconds on a loaded machine (a ping timeout
        // closed the connection at load 18 with a 5 s interval). Keepalive is
        // not what this test is about, so its interval is out of the way.
        let server = try await TestServer.make(pingInterval: .seconds(3600))
        try await server.application().test(.live) { client in
            let owner = try await client.signUp()
            let station = owner.stationID
            let dj = LiveClient(port: client.port!, path: "/api/stations/\(station)/live", token: owner.token)
            let snapshot = try await dj.snapshot()
            let entryIDs = ([snapshot.timeline.current].compactMap { $0 } + snapshot.timeline.upNext).map(\.id)
            let trackIDs = ([snapshot.timeline.current].compactMap { $0 } + snapshot.timeline.upNext).map(\.track.id)
            var rng = SeededRandom(seed: 2026)
            for _ in 0..<400 {
                dj.sendRaw(Self.message(&rng, entryIDs: entryIDs, trackIDs: trackIDs))
            }
            for _ in 0..<20 { dj.sendBinary((0..<64).map { _ in UInt8.random(in: 0...255, using: &rng) }) }
            // Still answering, in order, after all of it.
            try dj.send(.ping(nonce: "after-fuzz"))
            do {
                _ = try await dj.next { if case .pong("after-fuzz", _, _, _) = $0 { true } else { false } }
            } catch {
                Issue.record("connection closed: \(await dj.closeReason() ?? "?")")
                throw error
            }
            #expect(await dj.sequenceIsContiguous())
            let window = try await client.timeline(station)
            let entries = [window.current].compactMap { $0 } + window.upNext
            for (a, b) in zip(entries, entries.dropFirst()) {
                #expect(a.expiration == b.start)
            }
            let health = try await client.execute(uri: "/health", method: .get)
            #expect(health.status == .ok)
            dj.close()
        }
    }
}
