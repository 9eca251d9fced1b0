import Logging
import WavelengthCore
import WavelengthStore

/// What every station hub needs from the rest of the server.
struct StationContext: Sendable {
    let repository: any StationRepository
    let catalog: LibraryCatalog
    /// The wall clock instants are read from.
    let clock: any ServerClock
    /// The clock timers sleep on: the system's, or a test's that a test moves.
    let sleeper: any Clock<Duration>
    /// A new random source for each hub (tests seed it).
    let makeRandom: @Sendable () -> AnyRandom
    let machineSettings: StationMachine.Settings
    let logger: Logger
    /// Where the hub says which tracks it may be playing while someone listens.
    var onAir = OnAirTracks()
    /// Where the hub says whether its station is announced on the LAN (nil:
    /// mDNS is off).
    var nearby: NearbyRegistry? = nil
    /// Who is who on the station, for what the hub must know of people who
    /// aren't connected (a mute's target); nil in hub tests that don't.
    var access: (any StationAccessRepository)? = nil
    /// Blocks: a party's requests and votes don't come from someone a block
    /// stands between and the owner.
    var blocks: (any BlockRepository)? = nil
    /// The server's Prometheus figures.
    var metrics = ServerMetrics()
    /// The stations' shows, for the programming of the show on the air
    /// (none in hub tests that don't need it).
    var schedule: (any ScheduleRepository)? = nil
}

/// A random number generator of any kind, so the hub can hold the system's
/// or a seeded one.
struct AnyRandom: RandomNumberGenerator, Sendable {
    private var base: any RandomNumberGenerator & Sendable

    init(_ base: any RandomNumberGenerator & Sendable) {
        self.base = base
    }

    mutating func next() -> UInt64 {
        base.next()
    }

    static let system: @Sendable () -> AnyRandom = { AnyRandom(SystemRandomNumberGenerator()) }
}
