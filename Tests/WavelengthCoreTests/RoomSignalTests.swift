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
    func room(
        _ machine: inout StationMachine, _ signal: RoomSignal, from id: UInt64, at now: EpochMillis? = nil
    ) throws(HubError) -> [HubAction] {
        var rng = SeededRandom(seed: 42 + id)
        return try machine.roomSignal(signal, from: ConnectionID(id), at: now ?? t0, using: &rng)
    }

    static func sent(_ actions: [HubAction]) -> [(to: UInt64, signal: RoomSignal)] {
        actions.compactMap { if case .send(let id, .room(let signal)) = $0 { (id.value, signal) } else { nil } }
    }

    /// A call on a public station reached every listener, in any home. Now
    /// it goes to the caller's own devices (the same person signed in), and
    /// anyone else takes part only with the code the meter was given; the
    /// plan and figures go to those who joined, and only the caller may
    /// send them. Played through as a room would, every event checked.
    @Test func aCallReachesOnlyTheCallersOwnDevicesAndThoseWithItsCode() throws {
        var machine = quietMachine()
        let phone = Seat(personID: "p-owner", name: "Owner", role: .owner, address: "198.51.100.2")
        _ = try connect(&machine, 1, phone)
        _ = try connect(&machine, 2, phone)  // the owner's laptop, by the speaker
        _ = try connect(&machine, 3, Seat(personID: "p-far", name: "Far", role: .listener, address: "192.0.2.9"))
        _ = try connect(&machine, 4, Seat(personID: nil, name: "A listener", role: .listener, address: "198.51.100.2"))
        _ = try connect(&machine, 5, Seat(personID: nil, name: "A listener", role: .listener, address: "203.0.113.7"))
        let refusal = { (error: HubError) -> Bool in if case .room(.refused) = error { true } else { false } }

        // The call: back to the phone with its code, to the laptop without; nobody else.
        let called = Self.sent(try room(&machine, RoomSignal(kind: .call, session: "s", from: "Mallory", sender: "c3", code: nil), from: 1))
        #expect(called.map(\.to) == [1, 2])
        let code = try #require(called[0].signal.code)
        #expect(code.count == 6 && code.allSatisfy(\.isNumber))
        #expect(called[1].signal.code == nil && called[1].signal.from == "Owner" && called[1].signal.sender == "c1")

        // A listener elsewhere can't join without the code, nor with a wrong one.
        #expect(throws: HubError.self, performing: { try room(&machine, RoomSignal(kind: .join, session: "s", device: "far"), from: 3) })
        let wrong = code == "000000" ? "000001" : "000000"
        do {
            _ = try room(&machine, RoomSignal(kind: .join, session: "x", device: "tv", code: wrong), from: 5)
            Issue.record("a wrong code joined")
        } catch { #expect(refusal(error)) }

        // The TV types the code; the laptop takes part as invited. Only the phone hears of each.
        let tv = Self.sent(try room(&machine, RoomSignal(kind: .join, session: "x", device: "tv", name: "TV", code: code), from: 5))
        #expect(tv.map(\.to) == [1, 5])
        #expect(tv[0].signal.kind == .join && tv[0].signal.session == "s" && tv[0].signal.code == nil && tv[0].signal.device == "tv")
        #expect(tv[1].signal.kind == .call && tv[1].signal.session == "s" && tv[1].signal.sender == "c1")
        let laptop = Self.sent(try room(&machine, RoomSignal(kind: .join, session: "s", device: "laptop"), from: 2))
        #expect(laptop.map(\.to) == [1, 2])

        // Nobody but the caller sends the plan, figures or a stop.
        let plan = RoomSignal(kind: .plan, session: "s", slots: [.init(device: "tv", at: t0 + 2000)])
        let figures = RoomSignal(kind: .result, session: "s", results: [.init(device: "tv", delayMs: 1999)])
        for forger in [2, 3, 4, 5] as [UInt64] {
            for signal in [plan, figures, RoomSignal(kind: .cancel, session: "s")] {
                do {
                    _ = try room(&machine, signal, from: forger)
                    Issue.record("c\(forger) sent a \(signal.kind)")
                } catch { #expect(refusal(error)) }
            }
        }
        // Nor takes over the session with a call of its own.
        #expect(throws: HubError.self, performing: { try room(&machine, RoomSignal(kind: .call, session: "s"), from: 3) })

        // The caller's plan and figures reach the devices that joined, and no one else.
        #expect(Self.sent(try room(&machine, plan, from: 1)).map(\.to) == [2, 5])
        let result = RoomSignal(kind: .result, session: "s", results: [.init(device: "tv", delayMs: 150.2)])
        #expect(Self.sent(try room(&machine, result, from: 1)).map(\.to) == [2, 5])
        // The figures end the call: its code no longer joins.
        #expect(throws: HubError.self, performing: { try room(&machine, RoomSignal(kind: .join, session: "x", device: "d", code: code), from: 4) })
    }

    /// A caller who leaves ends the call: its devices stop waiting. A call
    /// lasts minutes, not forever: then its code stops working.
    @Test func aCallEndsWithItsCallerOrItsTime() throws {
        var machine = quietMachine()
        _ = try connect(&machine, 1, owner)
        _ = try connect(&machine, 2, Seat(personID: nil, name: "A listener", role: .listener, address: "203.0.113.7"))
        let first = Self.sent(try room(&machine, RoomSignal(kind: .call, session: "s"), from: 1))
        let code = try #require(first.first?.signal.code)
        _ = try room(&machine, RoomSignal(kind: .join, session: "-", device: "tv", code: code), from: 2)
        let gone = machine.disconnect(ConnectionID(1), at: t0 + 10)
        #expect(gone.contains(.send(ConnectionID(2), .room(RoomSignal(kind: .cancel, session: "s", from: "Owner", sender: "c1")))))

        _ = try connect(&machine, 3, owner)
        let again = Self.sent(try room(&machine, RoomSignal(kind: .call, session: "s2"), from: 3, at: t0 + 20))
        let second = try #require(again.first?.signal.code)
        let late = t0 + 20 + RoomCalls.lifetimeMillis
        #expect(throws: HubError.self, performing: {
            try room(&machine, RoomSignal(kind: .join, session: "-", device: "tv", code: second), from: 2, at: late)
        })
    }

    /// The name and the sending connection are the server's, whatever the
    /// sender says; a flood is slowed per listener.
    @Test func aRoomCalibrationsSignalsAreNamedByTheServerAndLimited() throws {
        var machine = quietMachine()
        _ = try connect(&machine, 1, owner)
        _ = try connect(&machine, 2, listener)
        let actions = Self.sent(try room(&machine, RoomSignal(kind: .call, session: "s", from: "Mallory", sender: "c2"), from: 1))
        #expect(actions.count == 1 && actions[0].signal.from == "Owner" && actions[0].signal.sender == "c1")
        for index in 1..<RoomSignalLimit.limit {
            _ = try room(&machine, RoomSignal(kind: .call, session: "s"), from: 1, at: t0 + EpochMillis(index))
        }
        #expect(throws: HubError.room(.tooFast(retryAt: t0 + RoomSignalLimit.windowMillis))) {
            try room(&machine, RoomSignal(kind: .call, session: "s"), from: 1, at: t0 + 100)
        }
        // Another listener has a limit of its own, and the window passes.
        _ = try room(&machine, RoomSignal(kind: .call, session: "t"), from: 2, at: t0 + 100)
        _ = try room(&machine, RoomSignal(kind: .call, session: "s"), from: 1, at: t0 + RoomSignalLimit.windowMillis)
        #expect(throws: HubError.self) { try room(&machine, RoomSignal(kind: .cancel, session: "s"), from: 9) }
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
                let signal = RoomSignal(kind: .call, session: "s\(n)")
                if (try? room(&machine, signal, from: UInt64(10 + n), at: t0 + EpochMillis(n * 5 + k))) != nil {
                    passed += 1
                }
            }
        }
        #expect(passed == RoomSignalLimit.limit)
    }
}
