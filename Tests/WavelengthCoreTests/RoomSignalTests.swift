import Testing
@testable import WavelengthCore

/// A room calibration's messages as the station passes them on: checked,
/// named by the server, limited per listener, and never kept.
@Suite("Room signals")
struct RoomSignalTests {
    let now: EpochMillis = 1_800_000_000_000

    @Test func aWholeCalibrationPassesAndTheSenderCannotNameItself() throws {
        let plan = RoomSignal(
            kind: .plan, session: "cal-1", slots: [.init(device: "meter", at: now + 2000), .init(device: "tv", at: now + 4000)],
            from: "Mallory")
        let passed = try plan.checked(at: now)
        #expect(passed.from == nil)
        #expect(passed.slots == plan.slots)
        let result = RoomSignal(
            kind: .result, session: "cal-1",
            results: [.init(device: "tv", delayMs: 151.2), .init(device: "bt", problem: " Not heard: is it playing? ")])
        #expect(try result.checked(at: now).results?[1].problem == "Not heard: is it playing?")
    }
}

extension StationMachineTests {
    /// A room calibration through the machine: passed to everyone but the
    /// sender, named by the server, and a flood slowed per listener.
    @Test func aRoomCalibrationsSignalsArePassedOnAndLimited() throws {
        var machine = quietMachine()
        _ = try connect(&machine, 1, owner)
        _ = try connect(&machine, 2, listener)
        let meter = ConnectionID(1)
        // The name and the sending connection are the server's, whatever the sender says.
        let actions = try machine.roomSignal(
            RoomSignal(kind: .call, session: "s", from: "Mallory", sender: "c2"), from: meter, at: t0)
        #expect(actions == [.broadcast(.room(RoomSignal(kind: .call, session: "s", from: "Owner", sender: "c1")), except: meter)])
        for index in 1..<RoomSignalLimit.limit {
            _ = try machine.roomSignal(RoomSignal(kind: .cancel, session: "s"), from: meter, at: t0 + EpochMillis(index))
        }
        #expect(throws: HubError.room(.tooFast(retryAt: t0 + RoomSignalLimit.windowMillis))) {
            try machine.roomSignal(RoomSignal(kind: .cancel, session: "s"), from: meter, at: t0 + 100)
        }
        // Another listener has a limit of its own, and the window passes.
        _ = try machine.roomSignal(RoomSignal(kind: .join, session: "s", device: "d"), from: ConnectionID(2), at: t0 + 100)
        _ = try machine.roomSignal(RoomSignal(kind: .cancel, session: "s"), from: meter, at: t0 + RoomSignalLimit.windowMillis)
        #expect(throws: HubError.self) { try machine.roomSignal(RoomSignal(kind: .cancel, session: "s"), from: ConnectionID(9), at: t0) }
    }

    /// 30 signed-out sockets from one address each had a limit of their
    /// own. Now they share one: the address's.
    @Test func signedOutRoomSignalsAreLimitedPerAddress() throws {
        var machine = quietMachine()
        _ = try connect(&machine, 1, owner)
        for n in 0..<30 {
            _ = try connect(&machine, UInt64(10 + n), Seat(personID: nil, name: "A listener", role: .listener, address: "203.0.113.7"))
        }
        var passed = 0
        for n in 0..<30 {
            for k in 0..<5 {
                let signal = RoomSignal(kind: .join, session: "s", device: "d\(n)")
                if (try? machine.roomSignal(signal, from: ConnectionID(UInt64(10 + n)), at: t0 + EpochMillis(n * 5 + k))) != nil {
                    passed += 1
                }
            }
        }
        #expect(passed == RoomSignalLimit.limit)
    }
}
