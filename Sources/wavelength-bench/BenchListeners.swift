import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization
import WavelengthClient
import WavelengthCore
import WavelengthTestSupport
import WavelengthWire

/// A popular station: many listeners join one station over WebSockets, the
/// server's memory is read per idle listener, then DJ updates are timed from
/// the command to its arrival at every listener. With `--votes`, the station
/// is a party instead, and what is timed is a vote on a request, from the
/// command to the new queue (a `party` message) at every listener. With
/// `--chat`, what is timed is a chat message, from the DJ's send (over the
/// SDK's WebSocket) to its arrival at every listener.
///
/// It starts its own `wavelength serve` (this binary) unless `--server` names
/// one; only a server it started can have its memory read.
struct BenchListeners: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listeners",
        abstract: "Many listeners on one station: join time, server memory per listener, update fan-out latency.")

    @Option(help: "How many listeners join the station.")
    var listeners: Int = 10_000

    @Option(help: "Handshakes in flight at once (a crowd arrives over time, not in one instant).")
    var connecting: Int = 256

    @Option(help: "How many DJ updates to time.")
    var updates: Int = 5

    @Option(help: "Use this running server (http://host:port) instead of starting one; memory is then not measured.")
    var server: String?

    @Option(help: "Run the station on a cluster of this many nodes on one PostgreSQL (a throwaway server from Debian's packages): the DJ on the first, which runs the station, and the listeners spread evenly over all of them (the others relay it).")
    var nodes: Int = 1

    @Option(help: "Give up on a phase (joining, an update) after this many seconds.")
    var patience: Int = 120

    @Flag(help: "Time votes on a party's request instead of DJ updates.")
    var votes = false

    @Flag(help: "Time chat messages from the DJ instead of DJ updates.")
    var chat = false

    @Flag(help: "Listeners stop reading while each update goes out, and it is timed by when it reached each socket (the kernel's receive time, TCP_INFO, ±4 ms): the server's fan-out alone, without this load generator taking the same two cores to read. Each listener then reads it, to check it came.")
    var quietReaders = false

    @Flag(help: "At the end, every listener hangs up and reconnects at once (a reconnect storm): how long until all are back, and how long /health took to answer meanwhile.")
    var storm = false

    @Flag(help: "Also time each update by when it reached the socket (the kernel's receive time, TCP_INFO): a getsockopt per update per listener, which costs this generator CPU.")
    var socketTimes = false

    func validate() throws {
        guard (1...200_000).contains(listeners) else { throw ValidationError("--listeners must be 1…200000") }
        guard (1...10_000).contains(connecting) else { throw ValidationError("--connecting must be 1…10000") }
        guard (1...1_000).contains(updates) else { throw ValidationError("--updates must be 1…1000") }
        guard (1...5).contains(nodes) else { throw ValidationError("--nodes must be 1…5") }
        guard nodes == 1 || server == nil else { throw ValidationError("--nodes starts its own cluster; it can't use --server") }
        guard !(votes && chat) else { throw ValidationError("--votes and --chat time different things; pick one") }
        guard !(quietReaders && socketTimes) else { throw ValidationError("--quiet-readers already times each update at the sockets") }
    }

    func run() async throws {
        let files = BenchMemory.raiseFileLimit()
        if files < listeners + 256 {
            print("warning: the open-file limit is \(files); \(listeners) listeners need more (ulimit -n)")
        }
        if let server {
            try await measure(urls: [server], healthURL: nil, memory: { nil }, cpu: { nil })
        } else if nodes > 1 {
            try await PostgresServer.with { postgres in
                let cluster = ["--database", "postgres://wavelength@/postgres?host=\(postgres.folder)"]
                try await Self.cluster(of: nodes, arguments: cluster, keysFrom: nil, running: []) { servers in
                    print("cluster:  \(servers.count) nodes on one PostgreSQL; the DJ on the first, the listeners spread evenly")
                    try await measure(
                        urls: servers.map(\.url), healthURL: servers[0].healthURL,
                        memory: {
                            let each = servers.map { $0.residentBytes() }
                            return each.contains(nil) ? nil : each.compactMap { $0 }.reduce(0, +)
                        },
                        cpu: {
                            let each = servers.map { $0.cpuSeconds() }
                            return each.contains(nil) ? nil : each.compactMap { $0 }.reduce(0, +)
                        })
                }
            }
        } else {
            try await BenchServer.run { server in
                try await measure(
                    urls: [server.url], healthURL: server.healthURL, memory: { server.residentBytes() }, cpu: { server.cpuSeconds() })
            }
        }
    }

    /// `count` nodes, one inside the other's run, sharing the first's signing keys.
    private static func cluster(
        of count: Int, arguments: [String], keysFrom first: String?, running: [BenchServer],
        _ body: ([BenchServer]) async throws -> Void
    ) async throws {
        guard running.count < count else { return try await body(running) }
        let folder = try BenchFailover.nodeFolder(keysFrom: first)
        try await BenchServer.run(dataDirectory: folder, node: true, extraArguments: arguments) { server in
            try await cluster(of: count, arguments: arguments, keysFrom: first ?? folder, running: running + [server], body)
        }
    }

    /// `cpu`: the servers' CPU time so far, in seconds, when they can be read.
    private func measure(
        urls: [String], healthURL: String?, memory: @Sendable () -> Int?, cpu: @Sendable () -> Double?
    ) async throws {
        let url = urls[0]
        let dj = try await BenchDJ.make(serverURL: url)
        let path = "/api/stations/\(dj.stationID)/live?v=\(LiveProtocol.version)"
        let wsURLs = urls.map { $0.replacingOccurrences(of: "http://", with: "ws://") + path }
        let wsURL = wsURLs[0]
        // One listener first puts the station on the air (the robot DJ fills it),
        // so the memory baseline is a station that is playing.
        let warmup = ListenerCrowd(url: wsURL, size: 1)
        let warmupTask = Task { await warmup.run(connecting: 1) }
        guard await finishes(within: patience, { warmup.all { $0.joinedAt != nil } }) else {
            throw BenchError("the first listener never joined")
        }
        let before = memory()
        let clientBefore = BenchMemory.residentBytes()

        let crowd = ListenerCrowd(urls: wsURLs, size: listeners, socketTimes: socketTimes)
        let started = DispatchTime.now().uptimeNanoseconds
        let crowdTask = Task { await crowd.run(connecting: connecting) }
        defer { crowdTask.cancel(); warmupTask.cancel() }
        let everyoneIn = await finishes(within: patience) {
            crowd.all { $0.joinedAt != nil || $0.closed != nil }
        }
        let joined = crowd.snapshot()
        let lastJoin = joined.compactMap(\.joinedAt).max() ?? started
        let closedWhileJoining = joined.filter { $0.closed != nil }
        print("joined:   \(joined.filter { $0.joinedAt != nil }.count) of \(listeners) in \(seconds(lastJoin - started)) s "
            + "(\(connecting) handshakes in flight), \(closedWhileJoining.count) closed"
            + (everyoneIn ? "" : "; the rest were still joining after \(patience) s"))
        for reason in Set(closedWhileJoining.compactMap(\.closed)).prefix(5) { print("          closed: \(reason)") }

        // Let the joins' listener-count messages (coalesced, one a second) go out.
        try await Task.sleep(for: .seconds(3))
        let joinedCount = max(1, joined.filter { $0.joinedAt != nil && $0.closed == nil }.count)
        if let before, let after = memory() {
            let perListener = Double(after - before) / Double(joinedCount)
            print("memory:   server \(mb(before)) MB before, \(mb(after)) MB with \(joinedCount) idle listeners = "
                + "\(String(format: "%.1f", perListener / 1024)) KB per listener")
        }
        if let clientBefore, let clientAfter = BenchMemory.residentBytes() {
            print("          (this load generator: \(mb(clientAfter - clientBefore)) MB for its \(listeners) clients)")
        }

        var latencies: [Double] = []
        var socketLatencies: [Double] = []
        var missed = 0
        // The servers' CPU over the rounds while the listeners don't read:
        // the fan-out's cost alone (with the command's), per core.
        var fanOutCPU: Double? = quietReaders ? 0 : nil
        let party = votes ? try await dj.openParty() : nil
        if party != nil { try await Task.sleep(for: .seconds(1)) }  // the requests' own broadcasts go out
        let talker = chat ? try await dj.talker() : nil
        defer { if let talker { Task { await talker.stop() } } }
        let label = chat ? "chat" : party == nil ? "update" : "vote"
        for round in 1...updates {
            if talker != nil {
                // Everyone, the DJ too, may post 5 messages in 10 s.
                try await Task.sleep(for: .milliseconds(1_600))
            }
            if quietReaders {
                await crowd.heartbeat()
                await crowd.setReading(false)
                try await Task.sleep(for: .milliseconds(200))  // the server reads the heartbeats
            }
            let cpuBefore = cpu()
            let sent = DispatchTime.now().uptimeNanoseconds
            // Each vote flips the DJ's own upvote on the waiting request, so
            // the queue every listener gets names a count only this vote made.
            let arrived: @Sendable (ListenerCrowd.Seen) -> UInt64?
            if let talker {
                let number = Int64(round)
                try await talker.say("bench \(number)")
                arrived = { seen in seen.chats.first(where: { $0.number == number })?.at }
            } else if let party {
                let expected: Int64 = round % 2 == 1 ? 0 : 1
                try await dj.vote(on: party, up: expected == 1)
                arrived = { seen in seen.parties.first(where: { $0.at > sent && $0.upvotes == expected })?.at }
            } else {
                let revision = try await dj.queueSomething()
                arrived = { seen in seen.updates.first(where: { $0.revision >= revision })?.at }
            }
            var quiet: [Double] = []
            if quietReaders {
                quiet = await arrivalsAtSockets(of: crowd, since: sent).sorted()
                if let cpuBefore, let cpuAfter = cpu() { fanOutCPU? += cpuAfter - cpuBefore } else { fanOutCPU = nil }
                await crowd.setReading(true)
            }
            _ = await finishes(within: patience) {
                crowd.all { seen in seen.closed != nil || seen.joinedAt == nil || arrived(seen) != nil }
            }
            var round_: [Double] = []
            var atSockets: [Double] = []
            for seen in crowd.snapshot() where seen.closed == nil && seen.joinedAt != nil {
                guard let arrival = arrived(seen) else { missed += 1; continue }
                round_.append(Double(arrival - sent) / 1_000_000)
                if party == nil, talker == nil,
                   let socketAt = seen.updates.first(where: { $0.at == arrival })?.socketAt {
                    atSockets.append(Double(Int64(socketAt) - Int64(sent)) / 1_000_000)
                }
            }
            if quietReaders {
                // Read only once reading was back on: what counts is that
                // each listener got it; when is its socket's time.
                print("\(label) \(round): reached \(quiet.count) sockets (then \(round_.count) listeners read it), first \(ms(quiet.first ?? .nan)) ms, "
                    + "p50 \(ms(percentile(quiet, 0.5))) ms, p99 \(ms(percentile(quiet, 0.99))) ms, last \(ms(quiet.last ?? .nan)) ms")
                latencies += quiet
                try await Task.sleep(for: .milliseconds(500))
                continue
            }
            round_.sort()
            atSockets.sort()
            print("\(label) \(round): reached \(round_.count) listeners, first \(ms(round_.first ?? .nan)) ms, p50 \(ms(percentile(round_, 0.5))) ms, "
                + "p99 \(ms(percentile(round_, 0.99))) ms, last \(ms(round_.last ?? .nan)) ms"
                + (atSockets.isEmpty ? "" : "; at the sockets p50 \(ms(percentile(atSockets, 0.5))) ms, p99 \(ms(percentile(atSockets, 0.99))) ms"))
            latencies += round_
            socketLatencies += atSockets
            try await Task.sleep(for: .milliseconds(500))
        }
        latencies.sort()
        let closedInAll = crowd.snapshot().filter { $0.closed != nil }.count
        print("\((label + "s:").padding(toLength: 9, withPad: " ", startingAt: 0)) \(latencies.count) deliveries"
            + (quietReaders ? " at the sockets (TCP_INFO, ±4 ms; the listeners read nothing until all were in)" : "") + ", p50 \(ms(percentile(latencies, 0.5))) ms, "
            + "p99 \(ms(percentile(latencies, 0.99))) ms, max \(ms(latencies.last ?? .nan)) ms; \(missed) missed")
        if !socketLatencies.isEmpty {
            socketLatencies.sort()
            // The kernel's receive time, before this process read the bytes:
            // how long the server took to hand the update to every socket,
            // without the wait for this load generator's share of the CPU.
            print("sockets:  the same updates by when they reached each socket (TCP_INFO, ±4 ms): p50 "
                + "\(ms(percentile(socketLatencies, 0.5))) ms, p99 \(ms(percentile(socketLatencies, 0.99))) ms, "
                + "max \(ms(socketLatencies.last ?? .nan)) ms")
        }
        if let fanOutCPU, !latencies.isEmpty {
            // What the two cores allow when nothing else needs them: each
            // delivery's share of the servers' CPU (the loopback's receiving
            // half included: the kernel runs it in the sender's write).
            let perDelivery = fanOutCPU / Double(latencies.count)
            print("cpu:      servers \(ms(fanOutCPU * 1000 / Double(updates))) ms of CPU per update, \(String(format: "%.1f", perDelivery * 1_000_000)) µs "
                + "per delivery = \(Int(1 / perDelivery)) deliveries per core-second (kernel ticks of 10 ms)")
        }
        print("closed:   \(closedInAll) of \(listeners) listeners by the end")
        if storm { try await reconnectStorm(url: url, healthURL: healthURL, wsURLs: wsURLs, crowd: crowd) }
    }

    /// Everyone hangs up and comes back at once. Meanwhile `/health` is asked
    /// every 50 ms three ways, each on a client of its own: on a connection
    /// opened before the storm (a node that stalls shows here), on a new
    /// connection each time (which waits in the kernel's accept queue
    /// behind the storm's, as a load balancer's check does), and on the
    /// node's `--health-port` (new each time, behind nobody).
    private func reconnectStorm(url: String, healthURL: String?, wsURLs: [String], crowd: ListenerCrowd) async throws {
        let probes = [
            HealthProbe(label: "open connection", url: url + "/health", fresh: false),
            HealthProbe(label: "new connections", url: url + "/health", fresh: true),
        ] + (healthURL.map { [HealthProbe(label: "--health-port", url: $0, fresh: true)] } ?? [])
        for probe in probes { await probe.ask() }  // the open one is open before the storm
        crowd.hangUp()
        let again = ListenerCrowd(urls: wsURLs, size: listeners)
        let started = DispatchTime.now().uptimeNanoseconds
        let probing = probes.map { probe in Task { await probe.keepAsking() } }
        let againTask = Task { await again.run(connecting: min(listeners, 10_000)) }
        defer { againTask.cancel(); for task in probing { task.cancel() } }
        let everyoneBack = await finishes(within: patience) { again.all { $0.joinedAt != nil || $0.closed != nil } }
        for task in probing { task.cancel() }
        let back = again.snapshot()
        let lastJoin = back.compactMap(\.joinedAt).max() ?? started
        print("storm:    \(back.filter { $0.joinedAt != nil }.count) of \(listeners) back in \(seconds(lastJoin - started)) s, "
            + "all reconnecting at once; \(back.filter { $0.closed != nil }.count) closed"
            + (everyoneBack ? "" : "; the rest were still joining after \(patience) s"))
        for reason in Set(back.compactMap(\.closed)).prefix(5) { print("          closed: \(reason)") }
        for probe in probes {
            let answers = probe.answers.withLock { $0 }.sorted()
            print("          /health, \(probe.label): \(answers.count) answers, p50 \(ms(percentile(answers, 0.5))) ms, "
                + "p99 \(ms(percentile(answers, 0.99))) ms, max \(ms(answers.last ?? .nan)) ms"
                + (probe.failures.withLock { $0 } > 0 ? ", \(probe.failures.withLock { $0 }) failed" : ""))
            await probe.shutdown()
        }
    }

    /// With the listeners not reading: how long after `sent` the message
    /// reached each open listener's socket, in ms. Polls the kernel's
    /// receive times every 250 ms (a syscall per socket, so not often) until
    /// every socket has taken in data since `sent`. The heartbeats before
    /// the round keep the server's pings away, so that data is the message.
    private func arrivalsAtSockets(of crowd: ListenerCrowd, since sent: UInt64) async -> [Double] {
        let open = crowd.snapshot().filter { $0.joinedAt != nil && $0.closed == nil }.count
        let deadline = sent + UInt64(patience) * 1_000_000_000
        // The kernel keeps receive times in whole jiffies (4 ms here); the
        // round's previous message came at least 700 ms before `sent`.
        let jiffy: UInt64 = 4_000_000
        var arrivals: [Int: UInt64] = [:]
        while arrivals.count < open, DispatchTime.now().uptimeNanoseconds < deadline,
              (try? await Task.sleep(for: .milliseconds(250))) != nil {
            for (index, at) in await crowd.lastReceived() where at + jiffy >= sent {
                arrivals[index] = at
            }
        }
        return arrivals.values.map { Double(max(Int64($0) - Int64(sent), 0)) / 1_000_000 }
    }

    /// Polls `condition` until it holds (true) or `seconds` pass (false).
    private func finishes(within seconds: Int, _ condition: @Sendable () -> Bool) async -> Bool {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds) * 1_000_000_000
        while !condition() {
            guard DispatchTime.now().uptimeNanoseconds < deadline,
                  (try? await Task.sleep(for: .milliseconds(20))) != nil else { return false }
        }
        return true
    }

    private func percentile(_ sorted: [Double], _ p: Double) -> Double {
        sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
    }
    private func ms(_ value: Double) -> String { String(format: "%.1f", value) }
    private func mb(_ bytes: Int) -> String { String(format: "%.1f", Double(bytes) / 1_048_576) }
    private func seconds(_ nanoseconds: UInt64) -> String { String(format: "%.2f", Double(nanoseconds) / 1e9) }
}

/// The bench's DJ: an account whose own station the listeners join, and who
/// changes its timeline through the HTTP command route.
struct BenchDJ: Sendable {
    let serverURL: String
    let stationID: String
    let token: String
    let trackIDs: [String]

    static func make(serverURL: String) async throws -> BenchDJ {
        let account = AccountClient(serverURL: serverURL)
        let handle = "bench\(UInt32.random(in: 0...UInt32.max))"
        let person = try await account.signUp(handle: handle, displayName: "Popular Station", password: "bench password")
        guard let stationID = person.stationID, let token = await account.accessToken() else {
            throw BenchError("the new account has no station or token")
        }
        struct Track: Decodable { var id: String }
        let (_, body) = try await send(.GET, serverURL + "/api/library/tracks?limit=20", token: token)
        let tracks = try JSONDecoder().decode([Track].self, from: body)
        guard !tracks.isEmpty else { throw BenchError("the server's library is empty") }
        return BenchDJ(serverURL: serverURL, stationID: stationID, token: token, trackIDs: tracks.map(\.id))
    }

    /// Turns requests on (with vote counts shown to everyone), and asks for
    /// two songs: the first is lined up at once, the second waits. Answers
    /// the waiting request's id.
    func openParty() async throws -> String {
        let patch = try JSONEncoder().encode(PartySettingsPatch(mode: .requests, showVoteCounts: true))
        let (opened, _) = try await Self.send(.PATCH, serverURL + "/api/stations/\(stationID)/party", token: token, body: patch)
        guard opened == .ok else { throw BenchError("the party could not be opened (\(opened))") }
        // Songs that just played can't be asked for: try the library in
        // turn until two requests are in.
        var asked = 0
        for trackID in trackIDs where asked < 2 {
            let ask = CommandRequest(id: "bench-\(UUID().uuidString)", command: .request(trackID: trackID))
            let (status, _) = try await Self.send(
                .POST, serverURL + "/api/stations/\(stationID)/commands", token: token, body: try JSONEncoder().encode(ask))
            if status == .ok { asked += 1 }
        }
        let (_, body) = try await Self.send(.GET, serverURL + "/api/stations/\(stationID)/party", token: token)
        guard let waiting = try JSONDecoder().decode(PartyView.self, from: body).requests.first else {
            throw BenchError("no request waits in the queue")
        }
        return waiting.id
    }

    /// Votes on the request: up, or takes the vote back.
    func vote(on requestID: String, up: Bool) async throws {
        let vote = CommandRequest(id: "bench-\(UUID().uuidString)", command: .vote(requestID: requestID, vote: up ? .up : nil))
        let (status, body) = try await Self.send(
            .POST, serverURL + "/api/stations/\(stationID)/commands", token: token, body: try JSONEncoder().encode(vote))
        guard status == .ok else { throw BenchError("the vote was refused (\(status)): \(String(decoding: body, as: UTF8.self))") }
    }

    /// The DJ on the station's WebSocket through the SDK, to post in its
    /// chat; returns once connected.
    func talker() async throws -> StationClient {
        let token = self.token
        let client = StationClient(
            configuration: ClientConfiguration(serverURL: serverURL, stationID: stationID, accessToken: { token }))
        let events = client.events
        await client.start()
        for await event in events {
            if case .chatRoom = event { return client }
        }
        throw BenchError("the DJ's connection ended before the chat was open")
    }

    /// Queues a track next and answers the revision that made.
    func queueSomething() async throws -> Int64 {
        let request = CommandRequest(
            id: "bench-\(UUID().uuidString)", command: .queueNext(trackID: trackIDs.randomElement()!))
        let (status, body) = try await Self.send(
            .POST, serverURL + "/api/stations/\(stationID)/commands", token: token, body: try JSONEncoder().encode(request))
        guard status == .ok else { throw BenchError("the command was refused (\(status)): \(String(decoding: body, as: UTF8.self))") }
        return try JSONDecoder().decode(CommandAck.self, from: body).revision
    }

    static func send(
        _ method: HTTPMethod, _ url: String, token: String, body: Data? = nil, client: HTTPClient = .shared
    ) async throws -> (HTTPResponseStatus, Data) {
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response = try await client.execute(request, timeout: .seconds(60))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        return (response.status, Data(buffer: bytes))
    }
}

/// Asks one `/health` address again and again, on its own client (and its
/// own event loop, so the crowd's connections don't delay it here), and
/// keeps how long each answer took, in ms.
final class HealthProbe: Sendable {
    let label: String
    private let url: String
    /// A new connection for every request (`Connection: close`).
    private let fresh: Bool
    /// One loop for every probe, apart from the crowd's, for the process's life.
    private static let loop = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private let client = HTTPClient(eventLoopGroup: HealthProbe.loop)
    let answers = Mutex<[Double]>([])
    let failures = Mutex(0)

    init(label: String, url: String, fresh: Bool) {
        self.label = label
        self.url = url
        self.fresh = fresh
    }

    func shutdown() async { try? await client.shutdown() }

    func ask() async {
        var request = HTTPClientRequest(url: url)
        if fresh { request.headers.add(name: "Connection", value: "close") }
        let asked = DispatchTime.now().uptimeNanoseconds
        do {
            let response = try await client.execute(request, timeout: .seconds(30))
            _ = try await response.body.collect(upTo: 1 << 16)
            answers.withLock { $0.append(Double(DispatchTime.now().uptimeNanoseconds - asked) / 1_000_000) }
        } catch {
            failures.withLock { $0 += 1 }
        }
    }

    func keepAsking() async {
        while !Task.isCancelled {
            await ask()
            try? await Task.sleep(for: .milliseconds(50))
        }
    }
}
