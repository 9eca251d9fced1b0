import ArgumentParser
import Foundation
import WavelengthCore
import Hummingbird
import Logging
import WavelengthPostgres
import WavelengthSQLite
import WavelengthServer

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the server. With no library it generates and plays a demo library.")

    @Option(help: "Address to listen on (env WAVELENGTH_HOST).")
    var host: String = Environment.value("WAVELENGTH_HOST") ?? "127.0.0.1"

    @Option(help: "Port to listen on (env WAVELENGTH_PORT).")
    var port: Int = Environment.value("WAVELENGTH_PORT").flatMap { Int($0) } ?? 8080

    @Option(help: "Data folder for the database and caches (env WAVELENGTH_DATA).")
    var data: String = Environment.value("WAVELENGTH_DATA") ?? ServerConfiguration.defaultDataDirectory

    @Option(help: "Where to keep what the server saves: sqlite:PATH (default: the data folder's wavelength.sqlite) or postgres://user:password@host:5432/database, which several nodes share (env WAVELENGTH_DATABASE).")
    var database: String? = Environment.value("WAVELENGTH_DATABASE")

    @Option(help: "With --database postgres://…: the address the other nodes reach this one at (default http://HOST:PORT; env WAVELENGTH_NODE_ADDRESS).")
    var nodeAddress: String? = Environment.value("WAVELENGTH_NODE_ADDRESS")

    @Option(name: .customLong("library"), help: "A music folder to scan at start; repeatable (env WAVELENGTH_LIBRARY, ':'-separated).")
    var libraries: [String] = Environment.libraryRoots

    @Option(help: "Folder of the web app's static files (env WAVELENGTH_WEB; default ./web when it holds the app).")
    var web: String?

    @Option(help: "Seconds between WebSocket pings; a client that misses one is dropped.")
    var pingInterval: Int = 15

    @Option(help: "Milliseconds ahead that skips and resumes take effect, so every listener changes together.")
    var commitLeadMs: Int = 300

    @Option(help: "Seconds a dropped DJ has to return before a listener is promoted.")
    var djGrace: Int = 20

    @Option(help: "bcrypt cost (log2 rounds, 4…16) for new password hashes; lower only for tests.")
    var bcryptCost: Int = 12

    @Option(help: "How many stations one account may own, its own included (1…1000).")
    var stationsPerAccount: Int = 10

    @Option(help: "How many accounts one client address may make in an hour (1…100000).")
    var signupsPerHour: Int = 20

    @Option(help: "How many guest sessions one client address may start in an hour (1…100000).")
    var guestsPerHour: Int = 120

    @Option(help: "The most megabytes of transcoded audio to keep (1…1000000); the least recently played go first.")
    var transcodeCacheMb: Int = 2048

    @Option(help: "The address people reach the server at, e.g. https://radio.example.edu; used in invite links and QR codes.")
    var publicUrl: String?

    @Option(help: "A token a Prometheus on another machine sends (Authorization: Bearer) to read /metrics; without it only this machine may.")
    var metricsToken: String?

    @Option(help: "A reverse proxy's address whose X-Forwarded-For and X-Forwarded-Proto are believed; repeatable.")
    var trustedProxy: [String] = []

    @Flag(help: "Leave `Secure` off the session cookies, for plain HTTP on a host other than localhost.")
    var insecureCookies = false

    // Unconditional: "-1" is the value, not another option.
    @Option(
        parsing: .unconditional,
        help: "Port broadcast software (BUTT, Mixxx, ffmpeg) connects to, to go live; 0 picks a free one, -1 turns it off.")
    var sourcePort: Int = Environment.value("WAVELENGTH_SOURCE_PORT").flatMap { Int($0) } ?? 8000

    @Option(help: "Seconds a live show waits for its dropped source to come back before the robot DJ resumes (0…600).")
    var liveGrace: Int = 20

    @Flag(help: "No limit on station WebSockets per address, per person or in all: for load generators measuring the server, never for a server people use.")
    var noSocketLimits = false

    @Flag(help: "Don't announce stations on the LAN (mDNS) or look for other servers' there.")
    var noMdns = false

    @Option(help: "Megabytes of voice clips each station keeps (1…1024).")
    var clipQuotaMb: Int = ClipLimits.defaultQuotaBytes >> 20

    @Option(help: "Megabytes of music each person may upload, unless an administrator sets theirs (0…1048576).")
    var uploadQuotaMb: Int = Int(UploadAllowance.defaultQuota >> 20)

    @Option(help: "Gigabytes of uploaded music the server keeps in all (0…100000).")
    var uploadCapGb: Int = 20

    @Option(help: "Days chat messages are kept (1…365).")
    var chatRetentionDays: Int = 7

    @Flag(help: "Skip the background audio analysis (loudness and tempo): tracks then play without loudness matching.")
    var noAnalysis = false

    @Option(help: "Seconds a stop (SIGTERM, SIGINT) waits for connections to finish before it cuts them (1…600).")
    var shutdownGrace: Int = 10

    @Option(help: "Seconds a stop first answers /health with 503 while still serving, so a load balancer takes this node out before its sockets close (env WAVELENGTH_DRAIN; 0 by default, 3 behind deploy/haproxy.cfg).")
    var drain: Int?

    @Option(help: "Also answer /health alone on this port, for a load balancer's checks: there they never wait behind a reconnect storm's connections (env WAVELENGTH_HEALTH_PORT; none by default).")
    var healthPort: Int?

    @Flag(help: "Don't watch the library folders: music added while the server runs shows up at the next full rescan.")
    var noLibraryWatch = false

    @Option(help: "Hours between full rescans of the library while the server runs (0: never; 1…8760).")
    var rescanHours: Int = 24

    @Option(help: "Who may sign up, stored for the next starts too: open, approval, invite or closed (env WAVELENGTH_REGISTRATION; by default an administrator's choice, else open on loopback and approval when --host reaches beyond this machine).")
    var registration: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error.")
    var logLevel: Logger.Level = .info

    func run() async throws {
        var logger = Logger(label: "wavelength")
        logger.logLevel = logLevel
        guard (1...65535).contains(port) || port == 0 else { throw ValidationError("--port must be 0…65535") }
        guard (1...3600).contains(pingInterval) else { throw ValidationError("--ping-interval must be 1…3600") }
        guard (0...10_000).contains(commitLeadMs) else { throw ValidationError("--commit-lead-ms must be 0…10000") }
        guard (1...3600).contains(djGrace) else { throw ValidationError("--dj-grace must be 1…3600") }
        guard (4...16).contains(bcryptCost) else { throw ValidationError("--bcrypt-cost must be 4…16") }
        guard (1...1000).contains(stationsPerAccount) else {
            throw ValidationError("--stations-per-account must be 1…1000")
        }
        var configuration = ServerConfiguration(
            host: host, port: port, dataDirectory: data, libraryRoots: libraries, webRoot: web ?? Environment.value("WAVELENGTH_WEB") ?? ServerConfiguration.defaultWebRoot,
            pingInterval: .seconds(pingInterval), djGracePeriod: .seconds(djGrace),
            commitLead: .milliseconds(commitLeadMs), bcryptCost: UInt8(bcryptCost), secureCookies: !insecureCookies)
        configuration.stationsPerAccount = stationsPerAccount
        guard (1...100_000).contains(signupsPerHour), (1...100_000).contains(guestsPerHour) else {
            throw ValidationError("--signups-per-hour and --guests-per-hour must be 1…100000")
        }
        configuration.signupsPerHour = signupsPerHour
        configuration.guestsPerHour = guestsPerHour
        guard (1...1_000_000).contains(transcodeCacheMb) else {
            throw ValidationError("--transcode-cache-mb must be 1…1000000")
        }
        configuration.transcodeCacheBytes = Int64(transcodeCacheMb) << 20
        if let publicUrl {
            guard let url = URL(string: publicUrl), ["http", "https"].contains(url.scheme ?? ""), url.host != nil,
                publicUrl.utf8.count <= 200, url.query == nil, url.fragment == nil
            else { throw ValidationError("--public-url must be an http(s) address like https://radio.example.edu") }
            configuration.publicURL = publicUrl.hasSuffix("/") ? String(publicUrl.dropLast()) : publicUrl
        }
        if let metricsToken {
            guard (16...200).contains(metricsToken.utf8.count), metricsToken.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
                throw ValidationError("--metrics-token must be 16 to 200 printable characters")
            }
            configuration.metricsToken = metricsToken
        }
        configuration.trustedProxies = trustedProxy
        configuration.analyzeAudio = !noAnalysis
        guard (-1...65535).contains(sourcePort) else { throw ValidationError("--source-port must be -1…65535") }
        configuration.sourcePort = sourcePort == -1 ? nil : sourcePort
        guard (0...600).contains(liveGrace) else { throw ValidationError("--live-grace must be 0…600 seconds") }
        configuration.liveGracePeriod = .seconds(liveGrace)
        guard (1...365).contains(chatRetentionDays) else { throw ValidationError("--chat-retention-days must be 1…365") }
        configuration.chatRetention = .seconds(chatRetentionDays * 86_400)
        configuration.mdns = !noMdns
        if noSocketLimits { configuration.liveSocketLimits = .unbounded }
        guard (1...1024).contains(clipQuotaMb) else { throw ValidationError("--clip-quota-mb must be 1…1024") }
        configuration.clipQuotaBytes = clipQuotaMb << 20
        guard (0...1_048_576).contains(uploadQuotaMb) else { throw ValidationError("--upload-quota-mb must be 0…1048576") }
        guard (0...100_000).contains(uploadCapGb) else { throw ValidationError("--upload-cap-gb must be 0…100000") }
        configuration.uploadQuotaBytes = Int64(uploadQuotaMb) << 20
        configuration.uploadCapBytes = Int64(uploadCapGb) << 30
        guard (1...600).contains(shutdownGrace) else { throw ValidationError("--shutdown-grace must be 1…600") }
        let environmentDrain = Environment.value("WAVELENGTH_DRAIN")
        let drain = try drain ?? environmentDrain.map { value in
            guard let seconds = Int(value) else { throw ValidationError("WAVELENGTH_DRAIN must be a whole number of seconds") }
            return seconds
        } ?? 0
        guard (0...120).contains(drain) else {
            let named = self.drain == nil ? "WAVELENGTH_DRAIN" : "--drain"
            throw ValidationError("\(named) must be 0…120 seconds")
        }
        let environmentHealthPort = Environment.value("WAVELENGTH_HEALTH_PORT")
        if let healthPort = try healthPort ?? environmentHealthPort.map({ value in
            guard let port = Int(value) else { throw ValidationError("WAVELENGTH_HEALTH_PORT must be a port number") }
            return port
        }) {
            let named = self.healthPort == nil ? "WAVELENGTH_HEALTH_PORT" : "--health-port"
            guard (0...65535).contains(healthPort) else { throw ValidationError("\(named) must be 0…65535") }
            guard healthPort == 0 || healthPort != port else { throw ValidationError("\(named) must differ from --port") }
            configuration.healthPort = healthPort
        }
        guard (0...8760).contains(rescanHours) else { throw ValidationError("--rescan-hours must be 0…8760") }
        configuration.fullRescanEvery = rescanHours == 0 ? nil : .seconds(rescanHours * 3600)
        configuration.libraryWatch = !noLibraryWatch
        if let mode = registration ?? Environment.value("WAVELENGTH_REGISTRATION") {
            guard let parsed = RegistrationMode(rawValue: mode) else {
                let named = registration == nil ? "WAVELENGTH_REGISTRATION" : "--registration"
                throw ValidationError("\(named) must be open, approval, invite or closed")
            }
            configuration.registration = parsed
        }
        // The grace counts from the signal: connections still get theirs after the drain.
        configuration.drain = Drain(period: .seconds(drain))
        let grace = Duration.seconds(shutdownGrace + drain)
        try DataFolder.secure(configuration.dataDirectory)
        switch try DatabaseChoice(database, defaultPath: configuration.databasePath) {
        case .sqlite(let path):
            // The embedded store: one SQLite file (in the private data folder
            // by default), this server's alone while it runs.
            let lock: DatabaseLock
            do {
                lock = try DatabaseLock(databasePath: path)
            } catch let held as DatabaseLock.Held {
                throw ValidationError(held.description)
            }
            defer { withExtendedLifetime(lock) {} }
            let storage = try AppDatabase.open(path: path)
            let app = try await buildApplication(configuration, storage: storage, logger: logger)
            try await runUntilStopped(app, grace: grace, drain: configuration.drain, logger: logger)
        case .postgres(let address):
            try await serveOnPostgres(address, configuration, grace: grace, logger: logger)
        }
    }

    /// The pool runs from before the migrations until the server has
    /// stopped, so the last saves of a graceful stop still reach PostgreSQL.
    private func serveOnPostgres(
        _ address: PostgresAddress, _ configuration: ServerConfiguration, grace: Duration, logger: Logger
    ) async throws {
        if let nodeAddress {
            guard nodeAddress.utf8.count <= 200, let url = URL(string: nodeAddress), ["http", "https"].contains(url.scheme ?? ""),
                url.host != nil
            else { throw ValidationError("--node-address must be an http(s) address like http://10.0.0.2:8080") }
        }
        // A new id at every start: a node that comes back is a new node,
        // which waits for its old leases to lapse rather than share them.
        let node = NodeIdentity(
            id: UUID().uuidString.lowercased(), address: nodeAddress ?? "http://\(configuration.host):\(configuration.port)")
        if nodeAddress == nil, ["0.0.0.0", "::"].contains(configuration.host) || configuration.port == 0 {
            logger.warning(
                "Other nodes forward requests to \(node.address), which doesn't reach this node: give it --node-address")
        }
        let store = PostgresStore(address: address, logger: logger, node: node)
        logger.info("Storage: PostgreSQL at \(address.logDescription), as node \(node.id)")
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await store.run() }
            defer { group.cancelAll() }
            do {
                try await store.migrate()
            } catch let error as PostgresUnavailable {
                throw ValidationError(
                    "PostgreSQL at \(address.logDescription) didn't answer (\(error)); is it running, and may this node connect?")
            }
            try await store.registerNode()
            let app = try await buildApplication(configuration, storage: store, logger: logger)
            try await runUntilStopped(app, grace: grace, drain: configuration.drain, logger: logger)
        }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
