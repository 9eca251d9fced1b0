import Foundation
import Hummingbird
import ServiceLifecycle
import Logging
import WavelengthCore
import WavelengthLibrary
import WavelengthStore
import WavelengthWire

/// Builds the whole server around `storage` (opened by whoever starts it):
/// the library, the stations and the routes.
public func buildApplication(
    _ configuration: ServerConfiguration, storage: any Storage, logger: Logger = Logger(label: "wavelength")
) async throws -> some ApplicationProtocol {
    let services = try await ServerServices.start(configuration, storage: storage, logger: logger)
    return try buildApplication(services)
}

/// Builds the server around services that are already running (tests use this).
public func buildApplication(_ services: ServerServices) throws -> some ApplicationProtocol {
    let configuration = services.configuration
    let logger = services.logger
    let router = try buildRouter(services)
    // A store whose last server handed its stations over (a test's restart
    // in one process) takes leases again.
    services.storage.beginLeasing()
    return Application(
        router: router,
        server: .http1LiveWebSocketsAnsweringMalformedRequests(
            webSocketRouter: router, maxFrameSize: WireLimits.maxWebSocketFrameBytes,
            headTimeout: configuration.requestHeadTimeout, keepAliveTimeout: configuration.keepAliveTimeout),
        configuration: .init(
            address: .hostname(configuration.host, port: configuration.port), serverName: "Wavelength",
            backlog: acceptBacklog),
        // Stopped in reverse: the server, then the live sockets, and only
        // then the lease keeper hands the stations over, so no listener or
        // command left here can take one back.
        services: clusterServices(services) + (try healthListener(services).map { [$0] } ?? [])
            + (services.libraryWatcher.map { [$0] } ?? [])
            + [services.liveSockets, services.analysis] + (services.liveSourceServer.map { [$0] } ?? []),
        onServerRunning: { channel in
            if let nearby = services.nearby {
                let port = channel.localAddress?.port ?? configuration.port
                Task { await nearby.announce(host: configuration.host, port: port, logger: logger) }
            }
            logger.info("Wavelength is on the air at http://\(configuration.host):\(channel.localAddress?.port ?? configuration.port)")
        },
        logger: logger)
}

/// `/health` alone on `--health-port` (see `ServerConfiguration.healthPort`),
/// answered by the same controller as on the main port.
private func healthListener(_ services: ServerServices) throws -> (any Service)? {
    let configuration = services.configuration
    guard let port = configuration.healthPort else { return nil }
    let router = Router(context: AppRequestContext.self)
    router.add(middleware: JSONErrorMiddleware())
    healthController(services, openAPIDocument: try HealthController.bundledDocument()).addRoutes(to: router)
    let logger = services.logger
    return Application(
        router: router,
        configuration: .init(address: .hostname(configuration.host, port: port), serverName: "Wavelength", backlog: acceptBacklog),
        onServerRunning: { channel in
            logger.info("Health checks answer at http://\(configuration.host):\(channel.localAddress?.port ?? port)/health")
        },
        logger: logger)
}

private func healthController(_ services: ServerServices, openAPIDocument: Data) -> HealthController {
    HealthController(
        tracks: services.storage, storage: services.storage, clock: services.clock, drain: services.configuration.drain,
        logger: services.logger, openAPIDocument: openAPIDocument)
}

/// Connections waiting to be accepted. A reconnect storm (a node's
/// listeners all coming back after a network blip or a failover) sends
/// thousands within a second, and each one the queue can't hold is dropped
/// and retried by the client's kernel a second or more later. Linux caps
/// the queue at `net.core.somaxconn` (4096 by default), so asking for more
/// costs nothing and lets an operator who raises it get it (deploy/README).
let acceptBacklog = 65535

/// With several nodes on one store: the lease keeper (first, so it stops
/// last) and the signal follower.
private func clusterServices(_ services: ServerServices) -> [any Service] {
    guard let every = services.storage.renewalInterval else { return [] }
    return [
        LeaseKeeper(
            directory: services.directory, leases: services.storage, every: every, metrics: services.streams.metrics,
            logger: services.logger),
        SignalFollower(
            signals: services.storage, directory: services.directory, node: services.storage.signalsNodeID,
            pollWhileListening: services.configuration.signalPollWhileListening, logger: services.logger),
    ]
}

/// The routes, for `buildApplication` and for router-level tests.
public func buildRouter(_ services: ServerServices) throws -> Router<AppRequestContext> {
    let router = Router(context: AppRequestContext.self)
    router.add(middleware: SecurityHeadersMiddleware())
    router.add(middleware: JSONErrorMiddleware())
    router.add(middleware: PathGuardMiddleware())
    let openAPIDocument = try HealthController.bundledDocument()
    router.add(middleware: MethodNotAllowedMiddleware(paths: try APIPaths(openAPIDocument: openAPIDocument)))
    if !services.configuration.trustedProxies.isEmpty {
        router.add(middleware: ForwardedForMiddleware(trustedProxies: Set(services.configuration.trustedProxies)))
    }
    if let webRoot = services.configuration.webRoot {
        // no-cache: browsers revalidate (ETag) so an upgraded app is never stale.
        router.add(
            middleware: FileMiddleware(
                fileProvider: ContainedFileSystem(rootFolder: webRoot, logger: services.logger),
                cacheControl: CacheControl([(MediaType(type: .any), [.noCache])]), searchForIndexHtml: true))
    }
    if services.storage.renewalInterval != nil {
        // Several nodes: a request for a station another node runs goes there.
        router.add(middleware: StationForwardingMiddleware())
    }
    router.add(middleware: SessionAuthenticator(auth: services.auth))
    let storage = services.storage
    let gate = StationGate(access: storage, schedule: storage, clock: services.clock, operators: storage)
    healthController(services, openAPIDocument: openAPIDocument).addRoutes(to: router)
    AuthController(
        auth: services.auth, people: storage, access: storage, directory: services.directory,
        attempts: services.attempts, registration: services.registration,
        secureCookies: services.configuration.secureCookies
    ).addRoutes(to: router)
    RegistrationController(
        registration: services.registration, people: storage, directory: services.directory, clock: services.clock,
        publicURL: services.configuration.publicURL
    ).addRoutes(to: router)
    PeopleController(
        people: storage, access: storage, directory: services.directory, gate: gate,
        clock: services.clock, operators: storage, blocks: storage
    ).addRoutes(to: router)
    StationsController(directory: services.directory, stations: storage, catalog: services.catalog, gate: gate)
        .addRoutes(to: router)
    HistoryController(
        directory: services.directory, history: storage, catalog: services.catalog, gate: gate, clock: services.clock
    ).addRoutes(to: router)
    StationAdminController(
        directory: services.directory, access: storage, people: storage, gate: gate, attempts: services.attempts,
        clock: services.clock, schedule: storage, sources: services.liveSources
    ).addRoutes(to: router)
    InvitesController(
        directory: services.directory, access: storage, gate: gate, clock: services.clock,
        publicURL: services.configuration.publicURL, trustedProxies: Set(services.configuration.trustedProxies)
    ).addRoutes(to: router)
    LibraryController(tracks: storage, audioAnalysis: services.analysis).addRoutes(to: router)
    TracksController(
        tracks: storage, transcoder: services.transcoder, onAir: services.directory.onAir, roots: services.libraryRoots,
        stations: storage, gate: gate
    ).addRoutes(to: router)
    PartyController(directory: services.directory, stations: storage, gate: gate).addRoutes(to: router)
    let links = LinkTokens(tokens: storage, people: storage)
    ScheduleController(
        directory: services.directory, schedule: storage, history: storage, people: storage,
        catalog: services.catalog, gate: gate, links: links, clock: services.clock, sources: services.liveSources
    ).addRoutes(to: router)
    LikesController(likes: storage, catalog: services.catalog, clock: services.clock).addRoutes(to: router)
    StreamController(
        directory: services.directory, streams: services.streams, gate: gate, links: links,
        clock: services.clock, publicURL: services.configuration.publicURL, sources: services.liveSources,
        sockets: services.liveSockets
    ).addRoutes(to: router)
    if let server = services.liveSourceServer {
        LiveSourceController(
            directory: services.directory, keys: storage, sources: services.liveSources, server: server, gate: gate,
            clock: services.clock, publicURL: services.configuration.publicURL
        ).addRoutes(to: router)
    }
    BroadcastController(
        directory: services.directory, sources: services.liveSources,
        idleTimeout: services.configuration.sourceIdleTimeout
    ).addRoutes(to: router)
    IdentifyController(recognizer: services.recognizer, catalog: services.catalog).addRoutes(to: router)
    NearbyController(nearby: services.nearby).addRoutes(to: router)
    ClipsController(
        directory: services.directory, repository: storage, store: services.clips, gate: gate, clock: services.clock,
        quotaBytes: services.configuration.clipQuotaBytes, blocks: storage
    ).addRoutes(to: router)
    MetricsController(
        metrics: services.streams.metrics, directory: services.directory, streams: services.streams,
        token: services.configuration.metricsToken
    ).addRoutes(to: router)
    StatusController(
        directory: services.directory, streams: services.streams, sources: services.liveSources, clock: services.clock,
        publicURL: services.configuration.publicURL, serverStart: Date()
    ).addRoutes(to: router)
    let deletion = StationDeletion(directory: services.directory, operators: storage, clipRecords: storage, clipFiles: services.clips)
    let personDeletion = PersonDeletion(
        directory: services.directory, operators: storage, access: storage, clipFiles: services.clips,
        uploadFiles: services.uploadFiles, catalog: services.catalog)
    AdminController(
        people: storage, operators: storage, access: storage, stations: storage, directory: services.directory,
        deletion: deletion, personDeletion: personDeletion, clock: services.clock, rescans: services.libraryRescans)
        .addRoutes(to: router)
    PersonalDataController(storage: storage, clipFiles: services.clips, clock: services.clock).addRoutes(to: router)
    UploadsController(
        uploads: storage, tracks: storage, people: storage, files: services.uploadFiles, recognizer: services.recognizer,
        catalog: services.catalog, directory: services.directory, clock: services.clock,
        allowance: UploadAllowance(
            defaultQuotaBytes: services.configuration.uploadQuotaBytes, serverCapBytes: services.configuration.uploadCapBytes),
        maxFileBytes: services.configuration.uploadMaxFileBytes, idleTimeout: services.configuration.uploadIdleTimeout,
        logger: services.logger
    ).addRoutes(to: router)
    TagFixController(
        tracks: storage, overrides: storage, roots: services.libraryRoots, catalog: services.catalog, clock: services.clock
    ).addRoutes(to: router)
    AccountDeletionController(
        auth: services.auth, deletion: personDeletion, secureCookies: services.configuration.secureCookies
    ).addRoutes(to: router)
    ReportsController(
        storage: storage, evidence: ReportEvidence(folder: services.configuration.dataDirectory + "/reports"),
        clipFiles: services.clips, directory: services.directory, gate: gate, attempts: services.attempts,
        clock: services.clock, removal: StationRemoval(directory: services.directory, access: storage, clock: services.clock, sources: services.liveSources),
        deletion: deletion
    ).addRoutes(to: router)
    BlocksController(
        people: storage, blocks: storage, follows: storage, directory: services.directory, clock: services.clock
    ).addRoutes(to: router)
    PasswordResetController(
        auth: services.auth, people: storage, resets: storage, clock: services.clock,
        publicURL: services.configuration.publicURL
    ).addRoutes(to: router)
    OverviewController(
        directory: services.directory, liveSources: services.liveSources, store: storage, figures: services.processFigures,
        folders: services.folderSizes, warnings: services.warnings, startedAt: services.startedAt
    ).addRoutes(to: router)
    let seating = ListenerSeating(directory: services.directory, gate: gate, blocks: storage)
    LiveController(
        directory: services.directory, seating: seating, clock: services.clock,
        pingInterval: services.configuration.pingInterval, sockets: services.liveSockets,
        slots: services.liveSocketSlots
    ).addRoutes(to: router)
    FeedController(
        seating: seating, proof: services.nodeProof, clock: services.clock,
        pingInterval: services.configuration.pingInterval, sockets: services.liveSockets
    ).addRoutes(to: router)
    return router
}

/// The long-lived parts of a running server.
public struct ServerServices: Sendable {
    public let configuration: ServerConfiguration
    /// Every repository, behind the protocols (the store is chosen at start-up).
    public let storage: any Storage
    let catalog: LibraryCatalog
    let directory: StationDirectory
    let transcoder: Transcoder
    let clock: any ServerClock
    let logger: Logger
    let auth: AuthService
    let attempts: AttemptGuard
    /// Who may sign up.
    let registration: Registration
    /// The log's last warnings, this process's figures and the folders' sizes, for the control room.
    let warnings: RecentWarnings
    let processFigures = ProcessFigures()
    let folderSizes: FolderSizes
    let startedAt = Date()
    /// The folders the library was scanned from; nothing outside them is served.
    let libraryRoots: LibraryRoots
    /// Every open live WebSocket (a service: it closes them when the server stops).
    let liveSockets = LiveSockets()
    /// The live sockets each address and person may hold.
    let liveSocketSlots: LiveSocketSlots
    /// The background audio analysis (a service: it runs after the scan).
    let analysis: AudioAnalysis
    /// The stations' radio streams, made as people tune in by stream.
    let streams: StreamDirectory
    /// Voice clips' audio.
    let clips: ClipStore
    let uploadFiles: UploadFiles
    /// The LAN: this server's stations announced, other servers' found (nil
    /// when mDNS is off).
    let nearby: NearbyService?
    /// "What's this song?" from audio.
    let recognizer: SongRecognizer
    /// Live sources from broadcast software, and where they connect.
    let liveSources: LiveSources
    let liveSourceServer: LiveSourceServer?
    /// Tells other nodes of timelines saved here (a cluster only).
    /// With several nodes: what opens this node's station feeds to the others.
    var nodeProof: NodeProof?
    /// Keeps the library in step while the server runs (nil with no
    /// library, or with several nodes), and its queue of rescans.
    var libraryWatcher: LibraryWatcher?
    var libraryRescans: LibraryRescanQueue?
    /// The port live sources connect to, once it is bound (nil when off).
    public var liveSourcePort: Int? {
        get async { await liveSourceServer?.bound.port }
    }

    /// Scans the library (or makes the demo library) into `storage`, and
    /// puts a first station on the dial when there is none. The data
    /// folder is made private first (its files are the server's alone).
    public static func start(
        _ configuration: ServerConfiguration, storage: any Storage, clock: any ServerClock = SystemClock(),
        robot: RobotDJ = RobotDJ(), logger: Logger
    ) async throws -> ServerServices {
        let warnings = RecentWarnings()
        let logger = warnings.watching(logger)
        try DataFolder.secure(configuration.dataDirectory)
        let signingKeys = try await SigningKeys.load(
            dataDirectory: configuration.dataDirectory, people: storage, now: clock.now())
        var roots = configuration.libraryRoots.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        if roots.isEmpty, configuration.demoLibrary {
            roots = [try await DemoLibrary.ensure(in: configuration.dataDirectory + "/demo-library")]
        }
        let uploadFiles = UploadFiles(folder: configuration.dataDirectory + "/uploads")
        let swept = try uploadFiles.prepare(keep: try await storage.uploadPaths())
        if swept > 0 { logger.notice("Uploads: removed \(swept) files no track names (an upload cut off by a crash)") }
        // Uploads are served, streamed and analysed like the library's files.
        let served = LibraryRoots(roots + [uploadFiles.folder])
        if !roots.isEmpty {
            let report = try await LibraryScanner(index: storage, logger: logger).scan(roots: roots)
            logger.info(
                "Library scanned: \(report.seen) files, \(report.added) added, \(report.updated) updated, \(report.unchanged) unchanged, \(report.removed) removed, \(report.failed) failed in \(String(format: "%.2f", report.elapsedSeconds)) s"
            )
            for failure in report.failures.prefix(20) {
                logger.warning("Skipped \(failure.path): \(failure.reason)")
            }
        }
        // Lockouts from before a restart still hold.
        let attempts = AttemptGuard(
            clock: clock, store: storage,
            limits: .init(
                signupsPerHour: configuration.signupsPerHour, guestsPerHour: configuration.guestsPerHour,
                reportsPerHour: configuration.reportsPerAddressPerHour))
        try await attempts.restore()
        let registration = try await Registration.start(configuration, store: storage, clock: clock, logger: logger)
        let catalog = LibraryCatalog(tracks: storage, likes: storage, people: storage, clips: storage)
        let clips = ClipStore(folder: configuration.dataDirectory + "/voice")
        let recognizer = SongRecognizer(store: storage, scratchDirectory: configuration.dataDirectory + "/clips")
        let nearby = configuration.mdns ? NearbyService(serverID: Self.instanceID(), logger: logger) : nil
        var context = StationContext(
            repository: storage, catalog: catalog, clock: clock, sleeper: ContinuousClock(),
            makeRandom: AnyRandom.system,
            machineSettings: StationMachine.Settings(
                robot: robot, djGraceMillis: configuration.djGracePeriod.milliseconds,
                commitLead: configuration.commitLead.milliseconds,
                chatRetentionMillis: configuration.chatRetention.milliseconds),
            logger: logger, schedule: storage)
        context.nearby = nearby?.registry
        context.access = storage
        context.blocks = storage
        // With several nodes: how this one proves itself to the others when
        // it relays a station one of them runs (`StationFeed`).
        let nodeProof = storage.renewalInterval == nil ? nil : NodeProof(secret: signingKeys.csrf)
        // Quiet stations' old messages go now; busy ones' as they chat.
        let purged = try await storage.purgeChat(before: clock.now() - configuration.chatRetention.milliseconds)
        if purged > 0 { logger.info("Chat: \(purged) messages older than the retention were deleted") }
        let directory = StationDirectory(
            context: context, access: storage, leases: storage, signals: storage, band: configuration.frequencyBand,
            stationsPerAccount: configuration.stationsPerAccount,
            feedSetup: nodeProof.map { StationFeed.Setup(node: storage.signalsNodeID, proof: $0, clock: clock) })
        let liveSources = LiveSources(
            directory: directory, keys: storage, schedule: storage, access: storage, attempts: attempts, clock: clock,
            stallTimeout: configuration.streamStallTimeout, grace: configuration.liveGracePeriod,
            renewal: configuration.liveRenewal,
            spotter: LiveSongSpotter(recognizer: recognizer, catalog: catalog, clock: clock, logger: logger),
            metrics: context.metrics, logger: logger)
        var services = ServerServices(
            configuration: configuration, storage: storage, catalog: catalog,
            directory: directory,
            transcoder: Transcoder(
                cacheDirectory: configuration.cacheDirectory, logger: logger,
                cacheLimit: configuration.transcodeCacheBytes), clock: clock,
            logger: logger,
            auth: try await AuthService.make(
                people: storage, signingKeys: signingKeys, clock: clock, bcryptCost: configuration.bcryptCost),
            attempts: attempts, registration: registration, warnings: warnings,
            folderSizes: FolderSizes(data: configuration.dataDirectory, libraries: roots), libraryRoots: served,
            liveSocketSlots: LiveSocketSlots(limits: configuration.liveSocketLimits),
            analysis: AudioAnalysis(
                store: storage, roots: served, clock: clock, logger: logger,
                enabled: configuration.analyzeAudio,
                analyzed: {
                    await catalog.invalidate()
                    await recognizer.invalidate()
                }),
            streams: StreamDirectory(
                tracks: storage, roots: served, clock: clock, grace: configuration.streamGracePeriod,
                stallTimeout: configuration.streamStallTimeout, sources: liveSources, clips: clips,
                metrics: context.metrics, logger: logger),
            clips: clips, uploadFiles: uploadFiles, nearby: nearby,
            recognizer: recognizer, liveSources: liveSources,
            liveSourceServer: configuration.sourcePort.map {
                LiveSourceServer(
                    host: configuration.host, port: $0, idleTimeout: configuration.sourceIdleTimeout, sources: liveSources,
                    logger: logger)
            })
        services.nodeProof = nodeProof
        if !roots.isEmpty, configuration.libraryWatch || configuration.fullRescanEvery != nil {
            if storage.renewalInterval != nil {
                // Every node would rescan the same folders at once, and
                // each would index a new file under an id of its own.
                logger.notice("With several nodes, library folders are not watched: run `wavelength scan` after adding music")
            } else {
                let (analysis, recognizer) = (services.analysis, recognizer)
                let queue = LibraryRescanQueue(roots: roots)
                services.libraryRescans = queue
                services.libraryWatcher = LibraryWatcher(
                    roots: roots, watch: configuration.libraryWatch, index: storage, directory: services.directory,
                    indexChanged: {
                        await catalog.invalidate()
                        await recognizer.invalidate()
                        await analysis.wake()
                    },
                    fullRescanEvery: configuration.fullRescanEvery, settle: .milliseconds(300), logger: logger, queue: queue)
            }
        }
        try await services.ensureFirstStation()
        return services
    }

    /// This run's instance id: 12 hex digits, told apart from other servers'.
    static func instanceID() -> String {
        var rng = SystemRandomNumberGenerator()
        return String(String(rng.next(), radix: 16).suffix(12))
    }

    /// A fresh server has one station so there is something on the dial.
    /// It belongs to nobody until someone claims it with its owner key,
    /// which goes to a file only the server's user can read (never the log).
    private func ensureFirstStation() async throws {
        guard try await storage.allStations().isEmpty else { return }
        let key = OwnerKey.generate()
        let hub = try await directory.create(name: "Wavelength Radio", owner: nil, ownerKey: key)
        let record = await hub.record
        let keyFile = configuration.dataDirectory + "/owner-keys.txt"
        let line = "\(record.id) \(record.frequency ?? "-") \(key)\n"
        if !FileManager.default.createFile(atPath: keyFile, contents: Data(line.utf8), attributes: [.posixPermissions: 0o600]) {
            // Not the key itself: a log may be read by more people than the data folder.
            logger.error("Could not write \(keyFile); the first station can't be claimed with an owner key")
        }
        logger.info(
            "Created station \"\(record.name)\" on \(record.frequency ?? "-") (id \(record.id)); claim it with the owner key in \(keyFile)"
        )
    }
}
