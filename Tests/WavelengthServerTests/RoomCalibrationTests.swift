import Foundation
import HummingbirdTesting
import Testing
import WavelengthCore
import WavelengthWire

@testable import WavelengthServer

/// A room calibration's messages over real WebSockets: passed on to every
/// other listener with the sender's name (never one the sender claims),
/// bad ones refused with a reason, a flood slowed, and nothing kept.
@Suite("Room calibration: the meter's messages", .timeLimit(.minutes(5)))
struct RoomCalibrationTests {
    @Test func aCallAPlanAndResultsReachTheOthersButNotTheSender() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let owner = try await client.signUp()
            let (meter, _) = try await ChatTests.join(client, owner.stationID, as: owner)
            let (speaker, _) = try await ChatTests.join(client, owner.stationID, as: nil)
            defer { [meter, speaker].forEach { $0.close() } }
            try meter.send(.room(RoomSignal(kind: .call, session: "s1", name: "Ana's phone", from: "Someone else")))
            let call = try await speaker.next { if case .room = $0 { true } else { false } }
            guard case .room(let heard) = call else { return }
            #expect(heard.kind == .call && heard.session == "s1" && heard.name == "Ana's phone")
            #expect(heard.from == owner.person.displayName, "the server names the sender, whatever it claims")

            try speaker.send(.room(RoomSignal(kind: .join, session: "s1", device: "dev-1", name: "  Kitchen  ")))
            let join = try await meter.next { if case .room = $0 { true } else { false } }
            guard case .room(let joined) = join else { return }
            #expect(joined.device == "dev-1" && joined.name == "Kitchen")

            let now = EpochMillis(Date().timeIntervalSince1970 * 1000)
            try meter.send(.room(RoomSignal(kind: .plan, session: "s1", slots: [.init(device: "dev-1", at: now + 3000)])))
            try meter.send(.room(RoomSignal(kind: .result, session: "s1", results: [.init(device: "dev-1", name: "Kitchen", delayMs: 149.6)])))
            let result = try await speaker.next {
                if case .room(let signal) = $0 { signal.kind == .result } else { false }
            }
            guard case .room(let figures) = result else { return }
            #expect(figures.results == [.init(device: "dev-1", name: "Kitchen", delayMs: 149.6)])
        }
    }

    @Test func badSignalsGetAReasonAndAFloodIsSlowed() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let owner = try await client.signUp()
            let (meter, _) = try await ChatTests.join(client, owner.stationID, as: owner)
            defer { meter.close() }
            let now = EpochMillis(Date().timeIntervalSince1970 * 1000)
            let bad: [RoomSignal] = [
                RoomSignal(kind: .call, session: ""),
                RoomSignal(kind: .call, session: "a b"),
                RoomSignal(kind: .join, session: "s"),
                RoomSignal(kind: .join, session: "s", device: "d", name: "tab\there"),
                RoomSignal(kind: .plan, session: "s", slots: []),
                RoomSignal(kind: .plan, session: "s", slots: [.init(device: "d", at: now + 86_400_000)]),
                RoomSignal(kind: .plan, session: "s", slots: Array(repeating: .init(device: "d", at: now), count: 14)),
                RoomSignal(kind: .result, session: "s", results: [.init(device: "d", delayMs: 5_000)]),
                RoomSignal(kind: .result, session: "s", results: [.init(device: "d")]),
                RoomSignal(kind: .result, session: "s", results: [.init(device: "d", delayMs: 1, problem: "both")]),
                RoomSignal(kind: .call, session: "s", results: [.init(device: "d", delayMs: 1)]),
                RoomSignal(kind: .result, session: "s", results: [.init(device: "d", name: "new\nline", delayMs: 1)]),
            ]
            for (index, signal) in bad.enumerated() {
                try meter.send(.room(signal))
                let refusal = try await meter.error()
                #expect(refusal.code == "bad_message", "\(index): \(refusal)")
            }
            meter.sendRaw(#"{"type":"room","signal":{"kind":"shout","session":"s"}}"#)
            #expect(try await meter.error().code == "bad_message")
            // A flood: the limit's worth pass, the next is slowed.
            for _ in 0..<(RoomSignalLimit.limit + 1) { try meter.send(.room(RoomSignal(kind: .cancel, session: "s"))) }
            let slowed = try await meter.error()
            #expect(slowed.code == "too_fast", "\(slowed)")
        }
    }
}
