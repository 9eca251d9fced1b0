import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import Synchronization

/// Many WebSocket listeners on one station, each a real client connection
/// that reads every message the server sends, as an app would, and notes
/// when the ones that matter came.
///
/// Each listener is a SwiftNIO channel handler reading frames on its event
/// loop, with no task per connection: the load generator shares the
/// machine's two cores with the server, so whatever it spends per message
/// (a task woken per frame, a String made of each) is measured as the
/// server's latency. Listeners only peek at a message's type and revision
/// rather than decode it, for the same reason.
final class ListenerCrowd: Sendable {
    /// What one listener saw, in `DispatchTime` nanoseconds.
    struct Seen: Sendable {
        var joinedAt: UInt64?
        var closed: String?
        /// Each update's revision and arrival, oldest first (bounded); with
        /// when its bytes reached the socket, by the kernel's clock
        /// (`tcpi_last_data_recv`, in jiffies: 4 ms here), before this load
        /// generator had the CPU to read them.
        var updates: [(revision: Int64, at: UInt64, socketAt: UInt64?)] = []
        /// Each `party` message's first request's upvotes and arrival (bounded).
        var parties: [(upvotes: Int64?, at: UInt64)] = []
        /// Each bench chat message's number ("bench N") and arrival (bounded).
        var chats: [(number: Int64, at: UInt64)] = []
    }

    /// One listener's record, behind a lock of its own: with one lock for
    /// the whole crowd, both event loops and the bench's polling took turns
    /// at it for every message.
    private final class Slot: Sendable {
        let seen = Mutex(Seen())
    }

    /// Where the listeners connect: listener i to `urls[i % urls.count]`
    /// (one station's crowd spread over a cluster's nodes).
    let urls: [String]
    /// Whether each update's socket arrival is read too (a syscall each).
    let socketTimes: Bool
    private let slots: [Slot]
    private let channels = Mutex<[(index: Int, channel: any Channel)]>([])

    convenience init(url: String, size: Int, socketTimes: Bool = false) {
        self.init(urls: [url], size: size, socketTimes: socketTimes)
    }

    init(urls: [String], size: Int, socketTimes: Bool = false) {
        precondition(!urls.isEmpty, "somewhere to connect")
        self.urls = urls
        self.socketTimes = socketTimes
        self.slots = (0..<size).map { _ in Slot() }
    }

    var size: Int { slots.count }

    func snapshot() -> [Seen] { slots.map { $0.seen.withLock { $0 } } }

    /// Whether every listener satisfies `condition`, each checked in place (no copy).
    func all(_ condition: (Seen) -> Bool) -> Bool {
        slots.allSatisfy { slot in slot.seen.withLock { condition($0) } }
    }

    private func record(_ index: Int, _ change: (inout Seen) -> Void) {
        slots[index].seen.withLock { change(&$0) }
    }

    /// Connects every listener, at most `connecting` handshakes in flight (a
    /// crowd arrives over time), and keeps them all connected until the task
    /// is cancelled; then closes them.
    func run(connecting: Int) async {
        let targets: [(host: String, port: Int, path: String)]
        do { targets = try urls.map(Self.parse) } catch {
            for index in slots.indices { record(index) { $0.closed = "\(error)" } }
            return
        }
        let slots = AsyncSemaphore(connecting)
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<size {
                await slots.wait()
                if Task.isCancelled { slots.signal(); break }
                group.addTask {
                    await self.connect(index: index, to: targets[index % targets.count])
                    slots.signal()
                }
            }
            await group.waitForAll()
        }
        // Stay connected until cancelled, then hang up.
        while (try? await Task.sleep(for: .seconds(3600))) != nil {}
        for (_, channel) in channels.withLock({ $0 }) { channel.close(promise: nil) }
    }

    /// Hangs every listener up at once (a network blip, a restart), while
    /// `run` goes on.
    func hangUp() {
        for (_, channel) in channels.withLock({ $0 }) { channel.close(promise: nil) }
    }

    /// Connects one listener and returns once it has its snapshot or has
    /// failed; its handler goes on reading on the event loop.
    private func connect(index: Int, to target: (host: String, port: Int, path: String)) async {
        let handler = CrowdListenerHandler(crowd: self, index: index)
        do {
            let upgrade = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(host: target.host, port: target.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let upgrader = NIOTypedWebSocketClientUpgrader<Bool>(
                            maxFrameSize: 1 << 20,
                            upgradePipelineHandler: { channel, _ in
                                channel.eventLoop.makeCompletedFuture {
                                    try channel.pipeline.syncOperations.addHandler(handler)
                                    return true
                                }
                            })
                        var headers = HTTPHeaders()
                        headers.add(name: "Host", value: "\(target.host):\(target.port)")
                        headers.add(name: "Content-Length", value: "0")
                        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: target.path, headers: headers)
                        let configuration = NIOTypedHTTPClientUpgradeConfiguration<Bool>(
                            upgradeRequestHead: head, upgraders: [upgrader],
                            notUpgradingCompletionHandler: { channel in channel.eventLoop.makeCompletedFuture { false } })
                        // The snapshot may come in the same read as the 101
                        // answer: those bytes must go on to the WebSocket
                        // handlers, not be dropped with the HTTP decoder.
                        var pipeline = NIOUpgradableHTTPClientPipelineConfiguration(upgradeConfiguration: configuration)
                        pipeline.leftOverBytesStrategy = .forwardBytes
                        return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
                            configuration: pipeline)
                    }
                }
            guard try await upgrade.get() else {
                failed(index, "the server refused the upgrade")
                return
            }
            await handler.joined()
        } catch {
            failed(index, "\(error)")
        }
    }

    fileprivate func opened(_ index: Int, _ channel: any Channel) {
        channels.withLock { $0.append((index, channel)) }
    }

    /// Sends an unasked-for pong (a heartbeat, RFC 6455 §5.5.3) on every
    /// listener's connection. The server pings a connection only after
    /// 15 s without a byte from it, so for that long nothing but what the
    /// bench times reaches the sockets.
    func heartbeat() async {
        let futures = channels.withLock { $0 }.map { _, channel in
            channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: ByteBuffer()))
        }
        try? await EventLoopFuture.andAllComplete(futures, on: MultiThreadedEventLoopGroup.singleton.any()).get()
    }

    /// Stops or restarts reading on every listener's socket. With reads
    /// off, what the server sends waits in each socket's receive queue, and
    /// this load generator takes none of the CPU the server writes with.
    func setReading(_ on: Bool) async {
        let futures = channels.withLock { $0 }.map { $0.channel.setOption(ChannelOptions.autoRead, value: on) }
        try? await EventLoopFuture.andAllComplete(futures, on: MultiThreadedEventLoopGroup.singleton.any()).get()
    }

    /// When each listener's socket last took in data, by the kernel's clock:
    /// now less `TCP_INFO`'s `tcpi_last_data_recv` (kept in whole jiffies,
    /// so ±4 ms here), read on each channel's event loop.
    func lastReceived() async -> [(index: Int, at: UInt64)] {
        let results = Mutex<[(index: Int, at: UInt64)]>([])
        let futures = channels.withLock { $0 }.compactMap { index, channel -> EventLoopFuture<Void>? in
            guard let options = channel as? any SocketOptionProvider else { return nil }
            return options.getTCPInfo().map { info in
                let now = DispatchTime.now().uptimeNanoseconds
                let ago = UInt64(info.tcpi_last_data_recv) * 1_000_000
                if now > ago { results.withLock { $0.append((index, now - ago)) } }
            }
        }
        try? await EventLoopFuture.andAllComplete(futures, on: MultiThreadedEventLoopGroup.singleton.any()).get()
        return results.withLock { $0 }
    }

    fileprivate func joined(_ index: Int, at time: UInt64) {
        record(index) { if $0.joinedAt == nil { $0.joinedAt = time } }
    }

    fileprivate func updated(_ index: Int, revision: Int64, at time: UInt64, socketAt: UInt64?) {
        record(index) {
            $0.updates.append((revision, time, socketAt))
            if $0.updates.count > 32 { $0.updates.removeFirst() }
        }
    }

    fileprivate func partied(_ index: Int, upvotes: Int64?, at time: UInt64) {
        record(index) {
            $0.parties.append((upvotes, time))
            if $0.parties.count > 32 { $0.parties.removeFirst() }
        }
    }

    fileprivate func chatted(_ index: Int, number: Int64, at time: UInt64) {
        record(index) {
            $0.chats.append((number, time))
            if $0.chats.count > 64 { $0.chats.removeFirst() }
        }
    }

    fileprivate func failed(_ index: Int, _ reason: String) {
        record(index) { if $0.closed == nil { $0.closed = reason } }
    }

    private static func parse(_ url: String) throws -> (host: String, port: Int, path: String) {
        guard let components = URLComponents(string: url), components.scheme == "ws",
              let host = components.host else { throw BenchError("not a ws:// URL: \(url)") }
        let query = components.percentEncodedQuery.map { "?\($0)" } ?? ""
        return (host, components.port ?? 80, components.percentEncodedPath + query)
    }
}

/// One listener of the crowd, after the upgrade: peeks at each frame where
/// it arrives, answers pings (the server lets a silent listener go), and
/// reports a close.
private final class CrowdListenerHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let crowd: ListenerCrowd
    private let index: Int
    /// Whether the snapshot came (or the connection ended first), and who
    /// waits for that.
    private let joining = Mutex<(done: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    init(crowd: ListenerCrowd, index: Int) {
        self.crowd = crowd
        self.index = index
    }

    /// Returns once the listener has its snapshot, or its connection ended.
    func joined() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = joining.withLock { state -> Bool in
                if state.done { return true }
                state.waiter = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }

    private func give() {
        joining.withLock { state -> CheckedContinuation<Void, Never>? in
            state.done = true
            return state.waiter.take()
        }?.resume()
    }

    func handlerAdded(context: ChannelHandlerContext) {
        crowd.opened(index, context.channel)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let arrived = DispatchTime.now().uptimeNanoseconds
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text where frame.fin:
            let peek = LivePeek(frame.data)
            switch peek.type {
            case "snapshot":
                crowd.joined(index, at: arrived)
                give()
            case "update":
                if let revision = peek.revision {
                    let crowd = self.crowd, index = self.index
                    if crowd.socketTimes {
                        Self.socketArrival(of: context.channel, readAt: arrived) { socketAt in
                            crowd.updated(index, revision: revision, at: arrived, socketAt: socketAt)
                        }
                    } else {
                        crowd.updated(index, revision: revision, at: arrived, socketAt: nil)
                    }
                }
            case "party":
                crowd.partied(index, upvotes: LivePeek.integer(#""upvotes":"#, in: frame.data), at: arrived)
            case "chat":
                if let number = LivePeek.integer(#""text":"bench "#, in: frame.data) {
                    crowd.chatted(index, number: number, at: arrived)
                }
            default:
                break
            }
        case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .connectionClose:
            var data = frame.unmaskedData
            let code = data.readWebSocketErrorCode().map { "\($0)" } ?? "no code"
            crowd.failed(index, "closed by the server (\(code))")
            context.close(promise: nil)
        default:
            break
        }
    }

    /// When the last bytes read reached the socket: `readAt` less the time
    /// since the kernel took in data (`TCP_INFO`'s `tcpi_last_data_recv`, in
    /// whole jiffies). On the channel's loop the answer comes at once.
    private static func socketArrival(
        of channel: any Channel, readAt: UInt64, _ done: @escaping @Sendable (UInt64?) -> Void
    ) {
        guard let options = channel as? any SocketOptionProvider else { return done(nil) }
        options.getTCPInfo().whenComplete { result in
            guard case .success(let info) = result else { return done(nil) }
            let ago = UInt64(info.tcpi_last_data_recv) * 1_000_000
            done(readAt > ago ? readAt - ago : nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        crowd.failed(index, "the connection closed")
        give()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        crowd.failed(index, "\(error)")
        give()
        context.close(promise: nil)
    }
}

/// The `type` and first `revision` of a server message, read straight from
/// its JSON bytes without decoding it (or making a String of it).
struct LivePeek {
    var type: String?
    var revision: Int64?

    init(_ buffer: ByteBuffer) {
        (type, revision) = buffer.withUnsafeReadableBytes { bytes in
            (Self.string(after: Array(#""type":""#.utf8), in: bytes),
             Self.integer(after: Array(#""revision":"#.utf8), in: bytes))
        }
    }

    /// The first integer after `key` in a message's bytes.
    static func integer(_ key: String, in buffer: ByteBuffer) -> Int64? {
        buffer.withUnsafeReadableBytes { integer(after: Array(key.utf8), in: $0) }
    }

    /// Where `key` ends in `bytes`, found with libc's `memmem`. A byte loop
    /// in Swift here was 40% of the load generator's CPU (perf); so was
    /// `memchr` for the key's opening quote with a `memcmp` at each one,
    /// since the encoder writes a message's keys in no fixed order and a key
    /// may follow hundreds of quotes. Either is measured as the server's
    /// latency.
    private static func end(of key: [UInt8], in bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress, !key.isEmpty, bytes.count >= key.count else { return nil }
        return key.withUnsafeBytes { needle -> Int? in
            guard let hit = memmem(base, bytes.count, needle.baseAddress, key.count) else { return nil }
            return base.distance(to: UnsafeRawPointer(hit)) + key.count
        }
    }

    private static func string(after key: [UInt8], in bytes: UnsafeRawBufferPointer) -> String? {
        guard let start = end(of: key, in: bytes) else { return nil }
        var stop = start
        while stop < bytes.count, bytes[stop] != UInt8(ascii: "\"") { stop += 1 }
        guard stop < bytes.count else { return nil }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<stop]), as: UTF8.self)
    }

    private static func integer(after key: [UInt8], in bytes: UnsafeRawBufferPointer) -> Int64? {
        guard var index = end(of: key, in: bytes) else { return nil }
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var value: Int64 = 0
        var digits = 0
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]), digits < 18 {
            value = value * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
            index += 1
            digits += 1
        }
        guard digits > 0 else { return nil }
        return negative ? -value : value
    }
}

/// glibc's `memmem` (two-way search, vectorized), which the Glibc module
/// does not import since it is a GNU extension.
private let memmem: @convention(c) (UnsafeRawPointer?, Int, UnsafeRawPointer?, Int) -> UnsafeMutableRawPointer? = {
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "memmem") else { fatalError("libc has no memmem") }
    return unsafeBitCast(symbol, to: (@convention(c) (UnsafeRawPointer?, Int, UnsafeRawPointer?, Int) -> UnsafeMutableRawPointer?).self)
}()

/// A counting semaphore for tasks: `wait` suspends (never blocks a thread)
/// until a slot is free.
final class AsyncSemaphore: Sendable {
    private struct State {
        var free: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }
    private let state: Mutex<State>

    init(_ slots: Int) { state = Mutex(State(free: slots)) }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                if state.free > 0 { state.free -= 1; return true }
                state.waiting.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func signal() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiting.isEmpty { state.free += 1; return nil }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
