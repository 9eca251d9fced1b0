import Foundation
import HummingbirdTesting
import Testing
import WavelengthCore
import WavelengthWire

@testable import WavelengthServer

/// A room calibration's messages over real WebSockets: a call reaches the
/// caller's own devices and comes back to the caller with its code; anyone
/// else takes part only with that code; the plan and figures go only to
/// those who joined, named by the server; bad signals are refused with a
/// reason, a flood is slowed, and nothing is kept.
@Suite("Room calibration: the meter's messages", .timeLimit(.minutes(5)))
struct RoomCalibrationTests {
    static func room(_ client: LiveClient, _ kind: RoomSignal.Kind? = nil) async throws -> RoomSignal {
        let message = try await client.next { if case .room(let signal) = $0 { kind == nil || signal.kind == kind } else { false } }
        guard case .room(let signal) = message else { throw LiveClient.ClosedError() }
        return signal
    }

    @Test func aCallReachesTheCallersDevicesAndThoseWithItsCodeOnly() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let owner = try await client.signUp()
            let (meter, _) = try await ChatTests.join(client, owner.stationID, as: owner)
            let (laptop, _) = try await ChatTests.join(client, owner.stationID, as: owner)
            let (tv, _) = try await ChatTests.join(client, owner.stationID, as: nil)
            let (elsewhere, _) = try await ChatTests.join(client, owner.stationID, as: nil)
            defer { [meter, laptop, tv, elsewhere].forEach { $0.close() } }
            try meter.send(.room(RoomSignal(kind: .call, session: "s1", name: "Ana's phone", from: "Someone else")))
            let echo = try await Self.room(meter, .call)
            let code = try #require(echo.code)
            let asked = try await Self.room(laptop, .call)
            #expect(asked.session == "s1" && asked.name == "Ana's phone" && asked.code == nil)
            #expect(asked.from == owner.person.displayName, "the server names the sender, whatever it claims")

            // Without the code, a listener who isn't the caller is refused.
            try elsewhere.send(.room(RoomSignal(kind: .join, session: "s1", device: "far")))
            #expect(try await elsewhere.error().code == "calibration_refused")
            try tv.send(.room(RoomSignal(kind: .join, session: "by-code", device: "dev-1", name: "  Kitchen  ", code: code)))
            let admitted = try await Self.room(tv, .call)
            #expect(admitted.session == "s1" && admitted.sender == echo.sender)
            let join = try await Self.room(meter, .join)
            #expect(join.device == "dev-1" && join.name == "Kitchen" && join.session == "s1")

            // A forged figure from the listener elsewhere is refused, never passed on.
            try elsewhere.send(.room(RoomSignal(kind: .result, session: "s1", results: [.init(device: "dev-1", delayMs: 1999)])))
            #expect(try await elsewhere.error().code == "calibration_refused")
            let now = EpochMillis(Date().timeIntervalSince1970 * 1000)
            try meter.send(.room(RoomSignal(kind: .plan, session: "s1", slots: [.init(device: "dev-1", at: now + 3000)])))
            try meter.send(.room(RoomSignal(kind: .result, session: "s1", results: [.init(device: "dev-1", name: "Kitchen", delayMs: 149.6)])))
            #expect(try await Self.room(tv, .plan).slots?.first?.device == "dev-1")
            let figures = try await Self.room(tv, .result)
            #expect(figures.results == [.init(device: "dev-1", name: "Kitchen", delayMs: 149.6)])
            #expect(figures.sender == echo.sender)
            // The listener elsewhere heard none of it: a refusal asked for
            // now comes after anything the station sent it before.
            try elsewhere.send(.room(RoomSignal(kind: .cancel, session: "s1")))
            #expect(try await elsewhere.error().code == "calibration_refused")
            #expect(!(await elsewhere.hasPending { if case .room = $0 { true } else { false } }))
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
                RoomSignal(kind: .join, session: "s", device: "d", code: "12345"),
                RoomSignal(kind: .join, session: "s", device: "d", code: "12345a"),
                RoomSignal(kind: .call, session: "s", code: "123456"),
            ]
            for (index, signal) in bad.enumerated() {
                try meter.send(.room(signal))
                let refusal = try await meter.error()
                #expect(refusal.code == "bad_message", "\(index): \(refusal)")
            }
            meter.sendRaw(#"{"type":"room","signal":{"kind":"shout","session":"s"}}"#)
            #expect(try await meter.error().code == "bad_message")
            // A flood: the limit's worth pass, the next is slowed.
            for _ in 0..<(RoomSignalLimit.limit + 1) { try meter.send(.room(RoomSignal(kind: .call, session: "s"))) }
            let slowed = try await meter.error()
            #expect(slowed.code == "too_fast", "\(slowed)")
        }
    }
}
