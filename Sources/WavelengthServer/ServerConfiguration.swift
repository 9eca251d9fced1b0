import Foundation
import WavelengthCore

/// Everything `wavelength serve` can be told, with the embedded defaults.
public struct ServerConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// Holds the SQLite database, the demo library and the transcode cache.
    public var dataDirectory: String
    /// Folders to scan at start. Empty means: use the generated demo library.
    public var libraryRoots: [String]
    /// The web app's static files; nil serves none.
    public var webRoot: String?
    /// How often WebSocket clients are pinged; one that misses a pong is dropped.
    public var pingInterval: Duration
    /// Whether to create a demo library when no library is configured.
    public var demoLibrary: Bool
    /// How long a DJ whose connection dropped has to return before a
    /// listener is promoted to DJ.
    public var djGracePeriod: Duration
    /// How far ahead a skip or a resume takes effect, so every listener has
    /// the next audio ready and changes at the same instant.
    public var commitLead: Duration
    /// bcrypt's cost (log2 rounds) for new password hashes; tests lower it.
    public var bcryptCost: UInt8
    /// Marks session cookies `Secure`. Browsers accept Secure cookies from
    /// http://localhost and 127.0.0.1; behind plain HTTP on another host, turn it off.
    public var secureCookies: Bool
    /// How many stations one account may own, its own station included, so
    /// that nobody hoards the band.
    public var stationsPerAccount: Int = 10
    /// The codes stations are handed; tests use a band of a few codes to
    /// see it fill.
    public var frequencyBand: FrequencyBand = .fm
    /// How many accounts one client address may make in an hour.
    public var signupsPerHour = 20
    /// Reports one client address may file in an hour, whoever files them
    /// (a person's own limits are `ReportLimits`).
    public var reportsPerAddressPerHour = 30
    /// How many guest sessions one client address may start in an hour (a
    /// party behind one NAT makes one per guest).
    public var guestsPerHour = 120
    /// The most bytes of transcoded audio kept; the least recently served go first.
    public var transcodeCacheBytes: Int64 = 2 << 30
    /// The address people reach the server at ("https://radio.example.edu"),
    /// used in links and QR codes; without it they use the request's Host.
    public var publicURL: String?
    /// How long a station's stream encoder keeps running after its last
    /// stream listener leaves (a player reconnecting finds it still on).
    public var streamGracePeriod: Duration = .seconds(10)
    /// How long a stream listener's write may go unfinished before it stops
    /// counting (a player gone without closing). With the time the socket's
    /// and NIO's buffers take to fill at 128 kbps (about 10 s) and the sweep
    /// (a quarter of this), a dead listener leaves the count within 35 s.
    public var streamStallTimeout: Duration = .seconds(15)
    /// The bearer token a Prometheus on another machine sends for
    /// `/metrics`; without it only this machine may read them.
    public var metricsToken: String?
    /// Reverse proxies whose `X-Forwarded-For` and `X-Forwarded-Proto` are
    /// believed (exact addresses).
    public var trustedProxies: [String] = []
    /// Measure every track's loudness and rhythm in the background after the scan.
    /// Where broadcast software connects to go live (Icecast's source
    /// protocol); 0 picks a free port, nil turns live sources off.
    public var sourcePort: Int? = 8000
    /// A source that sends nothing for this long is closed.
    public var sourceIdleTimeout: Duration = .seconds(10)
    /// A connection to the main port whose first request head hasn't come
    /// in full by then is closed (icecast's `header-timeout`).
    public var requestHeadTimeout: Duration = .seconds(15)
    /// A kept-alive HTTP connection with no request in flight is closed
    /// after this long (nginx's `keepalive_timeout`).
    public var keepAliveTimeout: Duration = .seconds(75)
    /// How long a live show waits for its dropped source to come back
    /// before the songs behind it play (BUTT and Mixxx reconnect within
    /// seconds).
    public var liveGracePeriod: Duration = .seconds(20)
    /// How often a live show still on the air is scheduled on for another
    /// `StationState.liveLength` (24 h), so a marathon never runs out of
    /// timeline. Shorter in tests.
    public var liveRenewal: Duration = .seconds(12 * 3_600)
    /// Whether stations are announced on the LAN (mDNS through Avahi) and
    /// other servers' stations listed at `/api/nearby`.
    public var mdns = true
    /// The bytes of voice clips each station keeps.
    public var clipQuotaBytes = ClipLimits.defaultQuotaBytes
    /// The bytes of music each person may upload, unless an administrator
    /// sets theirs; everyone's uploads together; one file.
    public var uploadQuotaBytes: Int64 = UploadAllowance.defaultQuota
    public var uploadCapBytes: Int64 = 20 << 30
    public var uploadMaxFileBytes: Int64 = 500 << 20
    /// How long an upload's body may send nothing before it is refused (408):
    /// a sender that stalls holds only its own in-flight slot, and not for long.
    public var uploadIdleTimeout: Duration = .seconds(30)
    /// How long chat messages are kept.
    public var chatRetention: Duration = .seconds(7 * 86_400)
    public var analyzeAudio = true
    /// How long a stop answers `/health` with 503 before it closes anything
    /// (behind a load balancer: longer than its health checks take to fail).
    public var drain = Drain(period: .zero)
    /// A second port that answers `/health` alone (0: any free port; nil:
    /// none). A load balancer's check opens a new connection each time, and
    /// on the main port that connection waits in the kernel's accept queue
    /// behind a reconnect storm's thousands, long enough to fail a check on
    /// a node that is serving fine. Here it waits behind nobody.
    public var healthPort: Int?
    /// Watch the library folders and rescan what changes (`serve` turns it
    /// on; off here so the tests' many servers don't each hold an inotify
    /// instance, of which the kernel allows 128 per user).
    public var libraryWatch = false
    /// A full rescan this often while the server runs (nil: never).
    public var fullRescanEvery: Duration? = .seconds(24 * 3600)
    /// With several nodes: how often the cluster's signals are read while
    /// the LISTEN connection is up (each wake-up reads them at once; this
    /// finds one lost without either end knowing yet).
    public var signalPollWhileListening: Duration = .seconds(30)
    /// How many station WebSockets each address and person may hold, and
    /// the server in all (from its file descriptor limit).
    public var liveSocketLimits: SocketBudget.Limits = LiveSocketSlots.forThisProcess()
    /// `--registration`: who may sign up, stored at start (nil: keep what an
    /// administrator set, or the default for `host`).
    public var registration: RegistrationMode?

    /// Who may sign up on a server nobody has set a mode on: open on
    /// loopback, approval where the server listens beyond this machine.
    public var defaultRegistration: RegistrationPolicy {
        .byDefault(listensBeyondThisMachine: !ListeningAddress.isLoopback(host))
    }

    public init(
        host: String = "127.0.0.1", port: Int = 8080, dataDirectory: String = ServerConfiguration.defaultDataDirectory,
        libraryRoots: [String] = [], webRoot: String? = ServerConfiguration.defaultWebRoot,
        pingInterval: Duration = .seconds(15), demoLibrary: Bool = true, djGracePeriod: Duration = .seconds(20),
        commitLead: Duration = .milliseconds(300), bcryptCost: UInt8 = 12, secureCookies: Bool = true
    ) {
        self.bcryptCost = bcryptCost
        self.secureCookies = secureCookies
        self.host = host
        self.port = port
        self.dataDirectory = dataDirectory
        self.libraryRoots = libraryRoots
        self.webRoot = webRoot
        self.pingInterval = pingInterval
        self.demoLibrary = demoLibrary
        self.djGracePeriod = djGracePeriod
        self.commitLead = commitLead
    }

    /// `$XDG_DATA_HOME/wavelength`, else `~/.local/share/wavelength`.
    public static var defaultDataDirectory: String {
        defaultDataDirectory(in: ProcessInfo.processInfo.environment)
    }

    /// As the XDG base directory spec reads it: `$XDG_DATA_HOME` when it is
    /// an absolute path, else `$HOME/.local/share` (the password file's home
    /// only when `$HOME` is unset: a service run with another `HOME`, or a
    /// test, keeps its data where it said).
    public static func defaultDataDirectory(in env: [String: String]) -> String {
        if let xdg = env["XDG_DATA_HOME"], xdg.hasPrefix("/") { return xdg + "/wavelength" }
        let home = env["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? FileManager.default.homeDirectoryForCurrentUser.path
        return home + "/.local/share/wavelength"
    }

    /// `./web` when run from a checkout, which is how the README runs it.
    public static var defaultWebRoot: String? {
        let candidate = FileManager.default.currentDirectoryPath + "/web"
        return FileManager.default.fileExists(atPath: candidate + "/index.html") ? candidate : nil
    }

    public var databasePath: String { dataDirectory + "/wavelength.sqlite" }
    public var cacheDirectory: String { dataDirectory + "/cache" }
}
