import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import WavelengthPostgres
import WavelengthSQLite
import WavelengthServer
import WavelengthWire

/// A server on a fresh data folder over the shared test library, with the
/// store `wavelength serve` opens: the embedded SQLite, or PostgreSQL when
/// `WAVELENGTH_TEST_STORE=postgres` (the suite runs twice, once on each).
struct TestServer {
    let dataDirectory: String
    let services: ServerServices
    /// The store itself, for tests that look at what was saved.
    let storage: any Storage
    /// The SQLite file's store, for tests that break it; nil on PostgreSQL.
    let database: AppDatabase?

    static func make(
        dataDirectory: String? = nil, pingInterval: Duration = .seconds(10), webRoot: String? = nil,
        djGracePeriod: Duration = .seconds(20), commitLead: Duration = .zero, libraryRoots: [String]? = nil,
        clock: any ServerClock = SystemClock(), storage chosen: (any Storage)? = nil,
        configure: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> TestServer {
        StallWatch.start
        let data = dataDirectory ?? NSTemporaryDirectory() + "wavelength-test-\(UUID().uuidString)"
        let roots: [String]
        if let libraryRoots { roots = libraryRoots } else { roots = try await TestLibrary.shared.roots() }
        var logger = Logger(label: "test")
        logger.logLevel = ProcessInfo.processInfo.environment["TEST_LOG"] == "1" ? .debug : .warning
        var configuration = ServerConfiguration(
            host: "127.0.0.1", port: 0, dataDirectory: data, libraryRoots: roots,
            webRoot: webRoot, pingInterval: pingInterval, demoLibrary: false, djGracePeriod: djGracePeriod,
            commitLead: commitLead, bcryptCost: 4)
        // Every test client shares one address; tests of these limits set their own.
        configuration.signupsPerHour = 100_000
        configuration.guestsPerHour = 100_000
        // Measuring loudness costs CPU every live test would share; the
        // test of the analysis turns it on.
        configuration.analyzeAudio = false
        // Live sources on a free port of their own, so tests don't collide.
        configuration.sourcePort = 0
        // Only the LAN test announces: the others would fill a running
        // avahi-daemon with test stations.
        configuration.mdns = false
        // HummingbirdTesting's live client connects when the test starts and
        // sends its first request whenever the test gets to it (a minute
        // later on a loaded machine), and never reconnects: the head and
        // keep-alive limits are the slow-client test's to set.
        configuration.requestHeadTimeout = .seconds(600)
        configuration.keepAliveTimeout = .seconds(600)
        configure(&configuration)
        try DataFolder.secure(data)
        let storage: any Storage
        let database: AppDatabase?
        if let chosen {
            database = nil
            storage = chosen
        } else if TestStore.current == .postgres {
            database = nil
            storage = try await TestStore.postgres(for: data, logger: logger)
        } else {
            let sqlite = try AppDatabase.open(path: configuration.databasePath)
            database = sqlite
            storage = sqlite
        }
        let services = try await ServerServices.start(configuration, storage: storage, clock: clock, logger: logger)
        return TestServer(dataDirectory: data, services: services, storage: storage, database: database)
    }

    func application() throws -> some ApplicationProtocol {
        try buildApplication(services)
    }

    /// The first station's id and owner key, from the file the server writes.
    func firstStation() throws -> (id: String, key: String) {
        let line = try String(contentsOfFile: dataDirectory + "/owner-keys.txt", encoding: .utf8)
        let parts = line.split(separator: " ")
        return (String(parts[0]), String(parts[2]).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

let jsonDecoder = JSONDecoder()
let jsonEncoder = JSONEncoder()

extension TestResponse {
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try jsonDecoder.decode(T.self, from: Data(buffer: body))
    }

    var errorCode: String? {
        (try? jsonDecoder.decode(ErrorBody.self, from: Data(buffer: body)))?.error.code
    }
}

extension TestClientProtocol {
    /// Sends a DJ command over HTTP.
    @discardableResult
    func command(
        _ station: String, key: String?, id: String, _ command: StationCommand
    ) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let key { headers[.authorization] = "Bearer \(key)" }
        let body = try jsonEncoder.encode(CommandRequest(id: id, command: command))
        return try await execute(
            uri: "/api/stations/\(station)/commands", method: .post, headers: headers, body: ByteBuffer(bytes: body))
    }

    func timeline(_ station: String) async throws -> TimelineWindow {
        try await execute(uri: "/api/stations/\(station)/timeline", method: .get).decode(TimelineWindow.self)
    }

    /// The library's tracks, as `/api/library/tracks` lists them.
    func tracks() async throws -> [TrackSummary] {
        try await execute(uri: "/api/library/tracks", method: .get).decode([TrackSummary].self)
    }

    func firstTrack(matching query: String) async throws -> TrackSummary {
        let response = try await execute(uri: "/api/library/search?q=\(query)", method: .get).decode(SearchResponse.self)
        guard let track = response.tracks.first else { throw CocoaError(.fileNoSuchFile) }
        return track
    }
}
