import Testing

@testable import WavelengthCore

/// The machine's count: people once, app and stream together; the stream's
/// own seat never; the per-minute series and the count each play had.
extension StationMachineTests {
    static func counts(_ actions: [HubAction]) -> [Int] {
        actions.compactMap { if case .broadcast(.listeners(let count), _) = $0 { count } else { nil } }
    }

    @Test func theStreamsSeatIsNotCountedButItsPlayersAre() throws {
        var machine = quietMachine()
        _ = try connect(&machine, 1, Seat(personID: nil, name: "Radio stream", role: .listener, audience: nil))
        #expect(machine.audience.counts.listeners == 0)
        _ = try connect(&machine, 2, listener, at: t0 + 5000)
        #expect(machine.audience.counts.listeners == 1)
        let vlc = ListenerIdentity.player(address: "10.0.0.5", userAgent: "VLC")
        let arrived = machine.streamAudience(.arrived(vlc, .stream), at: t0 + 10_000)
        #expect(Self.counts(arrived) == [2])
        #expect(machine.audience.counts == .init(listeners: 2, app: 1, stream: 1))
        // The listener also opens the stream, signed in: still two people.
        let same = machine.streamAudience(.arrived(.person("p-listener"), .stream), at: t0 + 12_000)
        #expect(same.isEmpty)
        #expect(machine.audience.counts.listeners == 2)
        _ = machine.streamAudience(.left(vlc, .stream), at: t0 + 20_000)
        #expect(machine.audience.counts.listeners == 1)
    }

    /// A signed-out listener hearing a live show: the app's connection and
    /// the relay's player say the same device key, and count once.
    @Test func aSignedOutDevicesAppAndPlayerCountOnce() throws {
        var machine = quietMachine()
        let key = try #require(DeviceKey("Kx3-9_fQ2rTz8wLm0aBcDe"))
        let device = Seat(personID: nil, name: "A listener", role: .listener, device: key)
        _ = try connect(&machine, 1, device)
        let relay = machine.streamAudience(.arrived(.device(key), .stream), at: t0 + 1000)
        #expect(Self.counts(relay).isEmpty)
        #expect(machine.audience.counts == .init(listeners: 1, app: 1, stream: 1))
        // The page reconnects: a new connection, the same device.
        _ = machine.disconnect(ConnectionID(1), at: t0 + 2000)
        #expect(machine.audience.counts.listeners == 1)
        _ = try connect(&machine, 2, device, at: t0 + 3000)
        #expect(machine.audience.counts == .init(listeners: 1, app: 1, stream: 1))
        // Without a key, a signed-out connection is one listener of its own.
        _ = try connect(&machine, 3, .anonymous, at: t0 + 4000)
        #expect(machine.audience.counts.listeners == 2)
    }

    @Test func deviceKeysAreShortPlainWords() {
        #expect(DeviceKey("Kx3-9_fQ2rTz8wLm0aBcDe") != nil)
        #expect(DeviceKey("0F4C2A9E-7B1D-4E8A-9C3F-5A6B7C8D9E0F") != nil)
        for bad in ["", "short", String(repeating: "k", count: 65), "has space", "<script>1234", "ключключключ"] {
            #expect(DeviceKey(bad) == nil, "\(bad)")
        }
    }

    @Test func aPersonsSecondDeviceChangesNoCount() throws {
        var machine = quietMachine()
        _ = try connect(&machine, 1, listener)
        let second = try connect(&machine, 2, listener, at: t0 + 5000)
        #expect(Self.counts(second).isEmpty)
        #expect(machine.audience.counts == .init(listeners: 1, app: 2))
        let left = machine.disconnect(ConnectionID(1), at: t0 + 6000)
        #expect(Self.counts(left).isEmpty)
        #expect(machine.audience.counts.listeners == 1)
    }

    @Test func everyMinuteSomeoneListenedIsRecorded() throws {
        var machine = quietMachine()
        let start = ListenerMinute.start(of: t0)
        _ = try connect(&machine, 1, owner, at: start)
        _ = try connect(&machine, 2, listener, at: start + 30_000)
        #expect(machine.timers[.audienceMinute] == start + 60_000)
        var recorded: [ListenerMinute] = []
        for minute in 1...3 {
            let due = start + Int64(minute) * 60_000
            for case .recordAudience(let minutes) in fire(&machine, .audienceMinute, at: due) { recorded += minutes }
        }
        #expect(recorded.map(\.minute) == [start, start + 60_000, start + 120_000])
        #expect(recorded.map(\.peak) == [2, 2, 2])
        #expect(recorded.map(\.listenerMillis) == [90_000, 120_000, 120_000])
    }

    @Test func aPlayGoesToHistoryWithTheMostPeopleWhoHeardIt() throws {
        var machine = quietMachine()
        _ = try connect(&machine, 1, owner)
        _ = try connect(&machine, 2, listener, at: t0 + 100)
        _ = try connect(&machine, 3, codj, at: t0 + 200)
        _ = machine.disconnect(ConnectionID(3), at: t0 + 300)
        let current = try #require(machine.station.timeline.current(at: t0 + 300))
        let ended = fire(&machine, .tick, at: current.expiration)
        let save = try #require(Self.saves(ended).first { !$0.played.isEmpty })
        #expect(save.listeners == 3)
    }
}
