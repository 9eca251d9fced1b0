import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceLifecycle
import Synchronization

/// Where broadcast software connects to go live: a port of its own, as
/// AzuraCast gives its DJs, since what a source sends after its request
/// head is not HTTP (see `SourceHeadHandler`). It speaks Icecast's source
/// protocol: `PUT` (with `Expect: 100-continue`) or the legacy `SOURCE`,
/// and `GET /admin/metadata` for title updates.
struct LiveSourceServer: Service {
    let host: String
    /// 0 picks a free port (tests).
    let port: Int
    let idleTimeout: Duration
    let sources: LiveSources
    let logger: Logger
    /// The port it listens on once bound.
    let bound = BoundPort()

    /// Source connections one address may hold open at once: far more than
    /// a DJ needs (one per station on the air, and software reconnecting),
    /// far fewer than the thousands a script could open and leave silent,
    /// each holding a socket and a request decoder until its idle timeout.
    static let connectionsPerAddress = 16

    func run() async throws {
        let sources = self.sources, logger = self.logger
        let idle = TimeAmount.nanoseconds(Int64(idleTimeout.components.seconds) * 1_000_000_000)
        let admission = SourceAdmission(slots: AddressSlots(perAddress: Self.connectionsPerAddress))
        let channel: any Channel
        do {
            channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .serverChannelInitializer { server in
                    server.eventLoop.makeCompletedFuture { try server.pipeline.syncOperations.addHandler(admission) }
                }
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let pipeline = channel.pipeline.syncOperations
                        guard let slot = admission.slot(of: channel) else {
                            let address = channel.remoteAddress?.ipAddress ?? "?"
                            logger.notice("A source connection from \(address) was turned away: it holds \(Self.connectionsPerAddress) already")
                            try pipeline.addHandler(SourceConnectionRefusal())
                            return
                        }
                        // Given back when the connection closes, however it does.
                        channel.closeFuture.whenComplete { _ in withExtendedLifetime(slot) {} }
                        try pipeline.addHandler(ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .forwardBytes)))
                        try pipeline.addHandler(IdleStateHandler(readTimeout: idle))
                        try pipeline.addHandler(SourceHeadHandler(sources: sources, logger: logger))
                    }
                }
                .bind(host: host, port: port).get()
        } catch {
            // The rest of the server runs without live sources.
            logger.error("Live sources can't connect: port \(port) on \(host) is not available (\(error))")
            bound.set(nil)
            try? await gracefulShutdown()
            return
        }
        bound.set(channel.localAddress?.port)
        logger.info("Live sources connect at icecast://\(host):\(channel.localAddress?.port ?? port)/live/{station}")
        try? await gracefulShutdown()
        try? await channel.close()
        await sources.closeAll()
    }
}

/// On the listening channel, where connections come one by one in the
/// order they were accepted: each takes one of its address's slots, or
/// none. (Taken in the connections' own initializers, which run on two event
/// loops at once, the 17th could get a slot and the 16th be turned away.)
private final class SourceAdmission: ChannelInboundHandler, Sendable {
    typealias InboundIn = any Channel

    private let slots: AddressSlots
    /// Each accepted connection's slot (nil: turned away), until its
    /// initializer takes it.
    private let decided = Mutex<[ObjectIdentifier: AddressSlots.Slot?]>([:])

    init(slots: AddressSlots) {
        self.slots = slots
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let child = unwrapInboundIn(data)
        let slot = slots.reserve(address: child.remoteAddress?.ipAddress ?? "unknown")
        let id = ObjectIdentifier(child)
        decided.withLock { $0[id] = .some(slot) }
        // A connection that closes before its initializer ran (it could not
        // be registered) must not keep its slot here.
        child.closeFuture.whenComplete { _ in _ = self.decided.withLock { $0.removeValue(forKey: id) } }
        context.fireChannelRead(data)
    }

    /// The connection's slot, taken out (nil: turned away).
    func slot(of child: any Channel) -> AddressSlots.Slot? {
        decided.withLock { $0.removeValue(forKey: ObjectIdentifier(child)) } ?? nil
    }
}

/// The answer to a connection over the address's limit, before it sends
/// anything: Icecast's HTTP/1.0 way, a whole answer and the close, so the
/// DJ's software can say why.
private final class SourceConnectionRefusal: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    func channelActive(context: ChannelHandlerContext) {
        let body = "This address holds \(LiveSourceServer.connectionsPerAddress) source connections already; close one first.\n"
        let text = "HTTP/1.0 429 Too Many Requests\r\nServer: Wavelength\r\nContent-Type: text/plain; charset=utf-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        let channel = context.channel  // a Sendable closure may not capture the context
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: text))).whenComplete { _ in channel.close(promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}  // whatever it sends is not read
}

/// A port known once a listener binds, for the tests and the API to read.
final class BoundPort: Sendable {
    private let state = Mutex<(port: Int??, waiters: [CheckedContinuation<Int?, Never>])>((nil, []))

    func set(_ port: Int?) {
        let waiters = state.withLock { state in
            state.port = .some(port)
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: port) }
    }

    /// The port, waiting until the listener bound (nil: it couldn't).
    var port: Int? {
        get async {
            await withCheckedContinuation { continuation in
                let known = state.withLock { state -> Int?? in
                    if let port = state.port { return .some(port) }
                    state.waiters.append(continuation)
                    return nil
                }
                if let known { continuation.resume(returning: known) }
            }
        }
    }
}
