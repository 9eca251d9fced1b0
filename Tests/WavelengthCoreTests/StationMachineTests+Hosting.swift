import Testing
@testable import WavelengthCore

/// A show's host is a co-DJ while the show airs, and only then.
extension StationMachineTests {
    @Test func aHostBecomesCoDJWhenTheirShowStartsAndListenerWhenItEnds() throws {
        var machine = quietMachine()
        let start = t0 + 60_000, end = t0 + 3_660_000
        var host = Seat(personID: "p-host", name: "Host", role: .listener)
        host.hosting = HostingWindow(start: start, end: end, baseRole: .listener)
        _ = try connect(&machine, 1, listener)
        let joined = try connect(&machine, 2, host)
        #expect(joined.contains(.startTimer(.hosting, at: start)))
        #expect(machine.connections.first { $0.id == ConnectionID(2) }?.seat.role == .listener)

        // The show starts: co-DJ, and the empty booth is theirs.
        let started = fire(&machine, .hosting, at: start)
        #expect(started.contains(.send(ConnectionID(2), .access(.codj))))
        #expect(machine.dj == ConnectionID(2))
        #expect(started.contains(.startTimer(.hosting, at: end)))
        // The owner's revoking a role they never had doesn't end the show early.
        let revoked = machine.roleChanged(personID: "p-host", to: .listener, at: start + 1000)
        #expect(machine.connections.first { $0.id == ConnectionID(2) }?.seat.role == .codj)
        #expect(!revoked.contains(.send(ConnectionID(2), .access(.listener))))

        // The show ends: back to listener, out of the booth, no more timers.
        let ended = fire(&machine, .hosting, at: end)
        #expect(ended.contains(.send(ConnectionID(2), .access(.listener))))
        #expect(machine.dj == nil)
        #expect(ended.contains(.cancelTimer(.hosting)) || machine.timers[.hosting] == nil)
        #expect(machine.connections.first { $0.id == ConnectionID(2) }?.seat.hosting == nil)
    }

    @Test func aHostMadeCoDJDuringTheirShowStaysCoDJAfterIt() throws {
        var machine = quietMachine()
        _ = try connect(&machine, 1, owner)
        var host = Seat(personID: "p-host", name: "Host", role: .codj)
        host.hosting = HostingWindow(start: t0 - 1000, end: t0 + 60_000, baseRole: .listener)
        let joined = try connect(&machine, 2, host)
        #expect(joined.contains(.startTimer(.hosting, at: t0 + 60_000)))
        _ = machine.roleChanged(personID: "p-host", to: .codj, at: t0 + 1000)
        let ended = fire(&machine, .hosting, at: t0 + 60_000)
        #expect(!ended.contains(.send(ConnectionID(2), .access(.listener))))
        #expect(machine.connections.first { $0.id == ConnectionID(2) }?.seat.role == .codj)
    }
}
