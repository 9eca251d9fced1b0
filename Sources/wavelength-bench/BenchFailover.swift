import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Subprocess
import Synchronization
import WavelengthClient
import WavelengthCore
import WavelengthTestSupport
import WavelengthWire
#if canImport(Glibc)
import Glibc
#endif

/// Failover on a real cluster: `wavelength serve` nodes on one PostgreSQL
/// (a throwaway server from Debian's packages). Each round a new node takes
/// every station (a listener on each keeps it there), takes commands for
/// all of them, and is killed (SIGKILL) with commands in flight; the bench
/// times how long each station takes to be served again by a surviving
/// node, and checks that none lost an acknowledged command.
struct BenchFailover: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "failover", abstract: "Failover time and acknowledged commands lost when a node is killed.")

    @Option(help: "How many stations the killed node runs.")
    var stations: Int = 100

    @Option(help: "How many kills.")
    var rounds: Int = 20

    @Option(help: "Seconds of commands before each kill.")
    var commandSeconds: Double = 1

    func validate() throws {
        guard (1...1_000).contains(stations) else { throw ValidationError("--stations must be 1…1000") }
        guard (1...100).contains(rounds) else { throw ValidationError("--rounds must be 1…100") }
        guard (0.1...60).contains(commandSeconds) else { throw ValidationError("--command-seconds must be 0.1…60") }
    }

    func run() async throws {
        _ = BenchMemory.raiseFileLimit()
        try await PostgresServer.with { postgres in
            let database = "postgres://wavelength@/postgres?host=\(postgres.folder)"
            let cluster = ["--database", database, "--drain", "0"]
            let first = try Self.nodeFolder(keysFrom: nil)
            try await BenchServer.run(dataDirectory: first, node: true, extraArguments: cluster) { b in
                let second = try Self.nodeFolder(keysFrom: first)
                try await BenchServer.run(dataDirectory: second, node: true, extraArguments: cluster) { c in
                    let owners = try await Self.signUp(stations, at: b.url)
                    // Commands that always apply: a track added at the end.
                    struct Track: Decodable { var id: TrackID }
                    let (_, listed) = try await BenchDJ.send(.GET, b.url + "/api/library/tracks?limit=50", token: owners[0].token)
                    let tracks = try JSONDecoder().decode([Track].self, from: listed).map(\.id)
                    guard !tracks.isEmpty else { throw BenchError("the server's library is empty") }
                    print("\(owners.count) stations; killing the node that runs them \(rounds) times (leases of 3 s)")
                    var backs: [Double] = []
                    var (acked, lost) = (0, 0)
                    var moved: [Int] = []
                    for round in 1...rounds {
                        let folder = try Self.nodeFolder(keysFrom: first)
                        let result = try await BenchServer.run(dataDirectory: folder, node: true, extraArguments: cluster) {
                            victim in
                            try await Self.kill(
                                victim, running: owners, tracks: tracks, survivors: [b.url, c.url], commandSeconds: commandSeconds,
                                database: postgres)
                        }
                        backs += result.backs
                        if let ran = result.moved { moved.append(ran) }
                        acked += result.acked
                        lost += result.lost
                        let sorted = result.backs.sorted()
                        print(
                            "round \(round): the killed node ran \(result.moved.map(String.init) ?? "?") of \(owners.count) stations;"
                                + " back in p50 \(format(Self.percentile(sorted, 0.5))) s, max \(format(sorted.last ?? 0)) s;"
                                + " \(result.acked) commands acknowledged, \(result.lost) lost")
                    }
                    let sorted = backs.sorted()
                    let ran = moved.isEmpty ? "?" : "\(moved.min()!)–\(moved.max()!)"
                    print(
                        "failover over \(rounds) kills of a node running \(ran) of \(owners.count) stations (every station timed): p50 \(format(Self.percentile(sorted, 0.5))) s,"
                            + " p95 \(format(Self.percentile(sorted, 0.95))) s, max \(format(sorted.last ?? 0)) s;"
                            + " within 5 s: \(sorted.filter { $0 <= 5 }.count) of \(sorted.count)")
                    print("acknowledged commands: \(acked), lost: \(lost)")
                }
            }
        }
    }

    struct Owner: Sendable {
        let station: StationID
        let token: String
    }

    struct Round: Sendable {
        var backs: [Double] = []
        var acked = 0
        var lost = 0
        /// The stations the killed node ran (nil: not read).
        var moved: Int?
    }

    /// What the command loops share: each station's last ack, and when to stop.
    private final class Record: Sendable {
        /// Each station's last acknowledged revision.
        let acks = Mutex<[StationID: Int64]>([:])
        let stop = Atomic<Bool>(false)
        let count = Atomic<Int>(0)
    }

    private static func kill(
        _ victim: BenchServer, running owners: [Owner], tracks: [TrackID], survivors: [String], commandSeconds: Double,
        database: PostgresServer
    ) async throws -> Round {
        // A listener on each station keeps it on the victim (each is taken
        // once its quiet lease elsewhere is let go).
        let held = try await withThrowingTaskGroup(of: Task<Void, Never>.self, returning: [Task<Void, Never>].self) { group in
            for owner in owners { group.addTask { try await Self.listen(to: owner, at: victim.url) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        defer { for listener in held { listener.cancel() } }

        // Commands for every station, one after another each, until the kill.
        let record = Record()
        // A client that gives up on a node that doesn't take the connection
        // (the shared one tries again until the request's deadline).
        var configuration = HTTPClient.Configuration(timeout: .init(connect: .seconds(2), read: .seconds(30)))
        configuration.connectionPool.retryConnectionEstablishment = false
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        let commands = Task {
            await withTaskGroup(of: Void.self) { group in
                for owner in owners {
                    group.addTask {
                        while !record.stop.load(ordering: .relaxed) {
                            let request = CommandRequest(
                                id: "bench-\(UUID().uuidString)", command: .append(trackID: tracks.randomElement()!))
                            guard let body = try? JSONEncoder().encode(request),
                                let (status, answer) = try? await BenchDJ.send(
                                    .POST, victim.url + "/api/stations/\(owner.station)/commands", token: owner.token, body: body,
                                    client: client)
                            else { break }
                            guard status == .ok, let ack = try? JSONDecoder().decode(CommandAck.self, from: answer) else {
                                if !record.stop.load(ordering: .relaxed) {
                                    print("refused before the kill (\(status)): \(String(decoding: answer.prefix(200), as: UTF8.self))")
                                }
                                break
                            }
                            record.acks.withLock { $0[owner.station] = ack.revision }
                            record.count.add(1, ordering: .relaxed)
                        }
                    }
                }
            }
        }
        try? await Task.sleep(for: .seconds(commandSeconds))
        // How many of the stations the victim really runs (a listener there
        // of a station another node still ran was seated there, through a
        // feed, and that station stays where it is).
        let ran = try? await Self.stationsRun(by: victim.url, database)
        let killed = ContinuousClock.now
        Glibc.kill(victim.pid, SIGKILL)
        record.stop.store(true, ordering: .relaxed)
        // The floor under this round's figures: how long the leases had left.
        if let left = try? await Self.leasesLeft(database) { print("leases left at the kill: \(left)") }
        await commands.value
        try await client.shutdown()
        let acknowledged = record.acks.withLock { $0 }

        // Each station, asked of the survivors in turn until one serves it.
        var round = Round(acked: record.count.load(ordering: .relaxed), moved: ran)
        try await withThrowingTaskGroup(of: (Double, Bool).self) { group in
            for (index, owner) in owners.enumerated() {
                let survivor = survivors[index % survivors.count]
                group.addTask {
                    let window = try await Self.timelineOnceServed(owner, at: survivor)
                    let back = (ContinuousClock.now - killed) / .seconds(1)
                    // Revisions only grow, each saved before it is
                    // acknowledged: a station back at a lower revision than
                    // its last ack lost a command (a higher one had a command
                    // in flight at the kill, saved but never acknowledged).
                    let lost = acknowledged[owner.station].map { window.revision < $0 } ?? false
                    return (back, lost)
                }
            }
            for try await (back, lost) in group {
                round.backs.append(back)
                if lost { round.lost += 1 }
            }
        }
        return round
    }

    /// How many stations' leases the node at `url` holds now, read with psql.
    private static func stationsRun(by url: String, _ postgres: PostgresServer) async throws -> Int? {
        let result = try await Subprocess.run(
            .name("psql"),
            arguments: [
                "-AtX", "-h", postgres.folder, "-U", "wavelength", "-d", "postgres", "-c",
                """
                SELECT count(*) FROM station_lease JOIN node ON node.id = station_lease.node_id
                WHERE node.address = '\(url.replacingOccurrences(of: "'", with: "''"))' AND expires_at > clock_timestamp()
                """,
            ], output: .string(limit: 4096), error: .discarded)
        return Int(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The leases still running (the killed node's): how many, and the
    /// least, median and most time they had left, read with psql.
    private static func leasesLeft(_ postgres: PostgresServer) async throws -> String {
        let result = try await Subprocess.run(
            .name("psql"),
            arguments: [
                "-AtX", "-h", postgres.folder, "-U", "wavelength", "-d", "postgres", "-c",
                """
                SELECT count(*) || ' leases, min ' || round(min(s), 3) || ' s, p50 '
                    || round(percentile_cont(0.5) WITHIN GROUP (ORDER BY s)::numeric, 3) || ' s, max ' || round(max(s), 3) || ' s'
                FROM (SELECT extract(epoch FROM expires_at - clock_timestamp()) AS s FROM station_lease
                      WHERE expires_at > clock_timestamp()) AS left_
                """, "-c",
                """
                SELECT state || ' ' || node_id || ': ' || count(*) FROM (
                    SELECT node_id, CASE WHEN expires_at = '-infinity' THEN 'let go'
                        WHEN expires_at < clock_timestamp() THEN 'lapsed' ELSE 'running' END AS state
                    FROM station_lease) AS leases GROUP BY state, node_id
                """,
            ], output: .string(limit: 4096), error: .discarded)
        return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Opens a listener on the station at `url`, trying again while the
    /// station is still another node's (503); answers the task keeping it open.
    private static func listen(to owner: Owner, at url: String) async throws -> Task<Void, Never> {
        let live = url.replacingOccurrences(of: "http://", with: "ws://")
            + "/api/stations/\(owner.station)/live?v=\(LiveProtocol.version)"
        for _ in 0..<600 {
            let crowd = ListenerCrowd(url: live, size: 1)
            let task = Task { await crowd.run(connecting: 1) }
            while true {
                let seen = crowd.snapshot()[0]
                if seen.joinedAt != nil { return task }
                if seen.closed != nil { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            task.cancel()
            try await Task.sleep(for: .milliseconds(100))
        }
        throw BenchError("station \(owner.station) never came to \(url)")
    }

    private static func timelineOnceServed(_ owner: Owner, at url: String) async throws -> TimelineWindow {
        for _ in 0..<6_000 {
            if let (status, body) = try? await BenchDJ.send(
                .GET, url + "/api/stations/\(owner.station)/timeline", token: owner.token),
                status == .ok
            {
                return try JSONDecoder().decode(TimelineWindow.self, from: body)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw BenchError("station \(owner.station) was never served again")
    }

    private static func signUp(_ count: Int, at url: String) async throws -> [Owner] {
        try await withThrowingTaskGroup(of: Owner.self) { group in
            for index in 0..<count {
                group.addTask {
                    let account = AccountClient(serverURL: url)
                    let person = try await account.signUp(
                        handle: "failover\(index)x\(UInt16.random(in: 0...UInt16.max))", displayName: "Station \(index)",
                        password: "bench password")
                    guard let station = person.stationID, let token = await account.accessToken() else {
                        throw BenchError("the new account has no station or token")
                    }
                    return Owner(station: station, token: token)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// A node's data folder (0700), with the cluster's signing keys when
    /// another node made them.
    /// A node's data folder, with the first node's signing keys (a cluster's nodes share them).
    static func nodeFolder(keysFrom first: String?) throws -> String {
        let folder = NSTemporaryDirectory() + "wavelength-failover-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        if let first { try FileManager.default.copyItem(atPath: first + "/keys", toPath: folder + "/keys") }
        return folder
    }

    private static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
    }
}
