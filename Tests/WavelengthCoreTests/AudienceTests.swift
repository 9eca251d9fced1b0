import Testing

@testable import WavelengthCore

@Suite("One honest count")
struct AudienceTests {
    let ada = ListenerIdentity.person("ada")

    @Test func aPersonOnTwoDevicesAndTheStreamIsOneListener() {
        var audience = Audience()
        let first = audience.arrive(ada, kind: .app, at: 0)
        #expect(first)
        audience.arrive(ada, kind: .app, at: 10)
        audience.arrive(ada, kind: .stream, at: 20)
        #expect(audience.counts == .init(listeners: 1, app: 2, stream: 1))
        audience.leave(ada, kind: .app, at: 30)
        audience.leave(ada, kind: .app, at: 40)
        #expect(audience.counts == .init(listeners: 1, app: 0, stream: 1))
        let (changed, departure) = audience.leave(ada, kind: .stream, at: 100)
        #expect(changed)
        #expect(departure == .init(identity: ada, stayed: 100))
        #expect(audience.isEmpty)
    }

    @Test func signedOutPlayersAreOnePerAddressAndPlayer() {
        var audience = Audience()
        audience.arrive(.player(address: "10.0.0.1", userAgent: "VLC/3.0"), kind: .stream, at: 0)
        audience.arrive(.player(address: "10.0.0.1", userAgent: "VLC/3.0"), kind: .stream, at: 0)
        audience.arrive(.player(address: "10.0.0.1", userAgent: "Sonos"), kind: .stream, at: 0)
        audience.arrive(.player(address: "10.0.0.2", userAgent: "VLC/3.0"), kind: .stream, at: 0)
        #expect(audience.counts.listeners == 3)
        #expect(audience.counts.stream == 4)
    }

    @Test func relaysAndBotsAreCountedApartNeverAsPeople() {
        var audience = Audience()
        audience.arrive(.player(address: "a", userAgent: "Icecast 2.4.4"), kind: .relay, at: 0)
        audience.arrive(.player(address: "b", userAgent: "Googlebot"), kind: .bot, at: 0)
        audience.arrive(.connection(ConnectionID(1)), kind: .app, at: 0)
        #expect(audience.counts == .init(listeners: 1, app: 1, stream: 0, relays: 1, bots: 1))
        #expect(ListenerKind.stream(userAgent: "Icecast 2.4.4") == .relay)
        #expect(ListenerKind.stream(userAgent: "Liquidsoap/2.2.4") == .relay)
        #expect(ListenerKind.stream(userAgent: "Mozilla/5.0 (compatible; Googlebot/2.1)") == .bot)
        #expect(ListenerKind.stream(userAgent: "UptimeRobot/2.0") == .bot)
        #expect(ListenerKind.stream(userAgent: "VLC/3.0.20 LibVLC/3.0.20") == .stream)
        #expect(ListenerKind.stream(userAgent: nil) == .stream)
    }

    /// A stream listener's arrival and departure come from another actor
    /// and may reach the station in either order: the count ends right.
    @Test func aDepartureBeforeItsArrivalStillEndsAtNothing() {
        var audience = Audience()
        let player = ListenerIdentity.player(address: "10.0.0.9", userAgent: "mpv")
        audience.leave(player, kind: .stream, at: 0)
        #expect(audience.counts.listeners == 0)
        audience.arrive(player, kind: .stream, at: 1)
        #expect(audience.counts == .init())
        #expect(audience.isEmpty)
    }

    /// One address opened 256 signed-out sockets and counted as 256
    /// listeners. Now signed-out listeners count at most
    /// `anonymousPerAddress` to an address, people once each, and the count
    /// ends right whatever order the arrivals and departures come in.
    @Test func oneAddressCountsAsAFewSignedOutListenersNotACrowd() {
        var audience = Audience()
        let cap = Audience.anonymousPerAddress
        let crowd: [ListenerIdentity] = (0..<40).map { n in
            n % 2 == 0
                ? .connection(ConnectionID(UInt64(n)), address: "203.0.113.7")
                : .device(DeviceKey("device-\(n)-key")!, address: "203.0.113.7")
        }
        for identity in crowd { audience.arrive(identity, kind: .app, at: 0) }
        #expect(audience.counts.listeners == cap)
        #expect(audience.counts.app == 40)
        let household: [ListenerIdentity] = (0..<3).map { .connection(ConnectionID(UInt64(100 + $0)), address: "198.51.100.2") }
        for identity in household { audience.arrive(identity, kind: .app, at: 0) }
        for n in 0..<2 { audience.arrive(.person("p\(n)"), kind: .app, at: 0) }
        #expect(audience.counts.listeners == cap + 3 + 2)
        // A signed-in person behind the crowded address is still one more.
        audience.arrive(.person("behind-the-nat"), kind: .app, at: 0)
        #expect(audience.counts.listeners == cap + 3 + 3)

        // In a shuffled order, departures before some arrivals: the count
        // after each event is what the rule says for who is there.
        var rng = SeededRandom(seed: 54)
        var events = crowd.map { ($0, true) } + crowd.map { ($0, false) }
        events.shuffle(using: &rng)
        var present: [ListenerIdentity: Int] = Dictionary(uniqueKeysWithValues: crowd.map { ($0, 1) })
        for (identity, arrives) in events {
            if arrives { audience.arrive(identity, kind: .app, at: 1) } else { audience.leave(identity, kind: .app, at: 1) }
            present[identity, default: 0] += arrives ? 1 : -1
            let crowdHere = present.values.filter { $0 > 0 }.count
            #expect(audience.counts.listeners == min(crowdHere, cap) + 3 + 3)
        }
        for identity in crowd { audience.leave(identity, kind: .app, at: 2) }
        #expect(audience.counts.listeners == 6)
        for identity in household { audience.leave(identity, kind: .app, at: 2) }
        for n in 0..<2 { audience.leave(.person("p\(n)"), kind: .app, at: 2) }
        audience.leave(.person("behind-the-nat"), kind: .app, at: 2)
        #expect(audience.counts == .init())
        #expect(audience.isEmpty)
    }

    @Test func theCountsPeakIsKept() {
        var audience = Audience()
        for n in 0..<5 { audience.arrive(.person("p\(n)"), kind: .app, at: 0) }
        for n in 0..<3 { audience.leave(.person("p\(n)"), kind: .app, at: 0) }
        #expect(audience.counts.listeners == 2)
        #expect(audience.peak == 5)
    }

    @Test func identitiesHaveBoundedLength() {
        let long = String(repeating: "x", count: 10_000)
        #expect(ListenerIdentity.player(address: long, userAgent: long).key.count < 240)
    }
}

@Suite("The per-minute audience series")
struct AudienceMeterTests {
    let m0: EpochMillis = 1_800_000_000_000 - 1_800_000_000_000 % 60_000

    @Test func aMinuteKeepsItsPeakAndListeningTime() {
        var meter = AudienceMeter()
        #expect(meter.observe(count: 1, at: m0 + 10_000).isEmpty)
        #expect(meter.observe(count: 3, at: m0 + 20_000).isEmpty)
        #expect(meter.observe(count: 2, at: m0 + 50_000).isEmpty)
        #expect(meter.nextBoundary == m0 + 60_000)
        let ended = meter.advance(to: m0 + 60_000)
        // 1 × 10 s + 3 × 30 s + 2 × 10 s = 120 person-seconds.
        #expect(ended == [ListenerMinute(minute: m0, peak: 3, listenerMillis: 120_000)])
        #expect(meter.nextBoundary == m0 + 120_000)
    }

    @Test func quietMinutesAreNotKeptAndBusyOnesAreEachKept() {
        var meter = AudienceMeter()
        _ = meter.observe(count: 2, at: m0)
        let ended = meter.advance(to: m0 + 3 * 60_000 + 5)
        #expect(ended.map(\.minute) == [m0, m0 + 60_000, m0 + 120_000])
        #expect(ended.allSatisfy { $0.peak == 2 && $0.listenerMillis == 120_000 })
        _ = meter.observe(count: 0, at: m0 + 3 * 60_000 + 5)
        #expect(meter.advance(to: m0 + 4 * 60_000).map(\.listenerMillis) == [10])
        #expect(meter.nextBoundary == nil)
        #expect(meter.advance(to: m0 + 100 * 60_000).isEmpty)
    }

    @Test func departuresAndStaysAreSummed() {
        var meter = AudienceMeter()
        _ = meter.observe(count: 2, at: m0)
        _ = meter.departed(stayed: 30_000, at: m0 + 30_000)
        _ = meter.observe(count: 1, at: m0 + 30_000)
        _ = meter.departed(stayed: 45_000, at: m0 + 45_000)
        _ = meter.observe(count: 0, at: m0 + 45_000)
        let minute = try! #require(meter.advance(to: m0 + 60_000).first)
        #expect(minute.departures == 2)
        #expect(minute.stayMillis == 75_000)
    }

    /// The studio's chart includes the minute still open; reading it
    /// changes nothing, and merging it with what was saved adds up.
    @Test func theOpenMinuteCanBeReadSoFar() {
        let m0: EpochMillis = 6_000_000
        var meter = AudienceMeter()
        _ = meter.observe(count: 2, at: m0 + 10_000)
        let soFar = meter.minutesSoFar(at: m0 + 40_000)
        #expect(soFar == [ListenerMinute(minute: m0, peak: 2, listenerMillis: 60_000)])
        // Read again later: still not handed out, and further along.
        #expect(meter.minutesSoFar(at: m0 + 70_000).map(\.minute) == [m0, m0 + 60_000])
        let closed = meter.advance(to: m0 + 60_000)
        #expect(closed == [ListenerMinute(minute: m0, peak: 2, listenerMillis: 100_000)])
        let saved = ListenerMinute(minute: m0, peak: 5, listenerMillis: 1_000, departures: 1, stayMillis: 500)
        #expect(
            ListenerMinute.merged([saved, closed[0], ListenerMinute(minute: m0 + 60_000, peak: 1, listenerMillis: 0)]) == [
                ListenerMinute(minute: m0, peak: 5, listenerMillis: 101_000, departures: 1, stayMillis: 500),
                ListenerMinute(minute: m0 + 60_000, peak: 1, listenerMillis: 0),
            ])
    }
}
