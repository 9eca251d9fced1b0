import Foundation
import Logging
import NIOCore
import WavelengthCore

/// A source connection after its request head: answers the request the
/// way Icecast does, and passes the audio that follows to the station's
/// relay. Closes, with a log line, a source that sends nothing for the
/// idle timeout, more than the bitrate cap, or bytes that aren't MP3.
///
/// While its request is being decided, a source is not idle: it waits for
/// the server (software that sent `Expect: 100-continue` sends nothing
/// until it is answered). Closing it then, on a loaded server whose check
/// outlasts the idle timeout, told the DJ nothing at all. It is given
/// `idlePeriodsToDecide` timeouts; after them it is answered 503, which
/// broadcast software shows and retries.
final class SourceBodyHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private enum State {
        /// Waiting for `LiveSources` to decide; audio that comes early waits.
        /// `idle`: the idle timeouts that have passed meanwhile.
        case deciding(pending: [ByteBuffer], bytes: Int, idle: Int)
        case streaming(AsyncStream<ByteBuffer>.Continuation)
        case closed
    }

    /// Audio a source may send before it is let in.
    static let maxPending = 1 << 20
    /// Bytes read to find the first MP3 frame (or an ID3 tag) before the
    /// source is taken for something else.
    static let sniffBytes = 64 * 1024
    /// Idle timeouts a decision may take before the source is told the
    /// server is too busy (30 s with the default 10 s timeout).
    static let idlePeriodsToDecide = 3

    /// How a request is decided: `LiveSources.open` (a parameter, so that
    /// tests can hold a decision back).
    typealias Decide = @Sendable (SourceRequest, _ address: String, _ channel: any Channel) async -> LiveSources.Decision

    private let request: Result<SourceRequest, SourceRequest.Refusal>
    private let decide: Decide
    /// The wall clock the bitrate cap is measured on.
    private let clock: any ServerClock
    private let logger: Logger
    private var state = State.deciding(pending: [], bytes: 0, idle: 0)
    private var bitrate = SourceBitrate()
    private var sniff = MP3Sniff()
    private var station = "?"

    init(
        request: Result<SourceRequest, SourceRequest.Refusal>, decide: @escaping Decide, clock: any ServerClock,
        logger: Logger
    ) {
        self.clock = clock
        self.request = request
        self.decide = decide
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let request: SourceRequest
        switch self.request {
        case .failure(let refusal):
            return refuse(context, refusal)
        case .success(let parsed):
            request = parsed
        }
        if case .stream(let stream) = request { station = stream.stationID }
        let address = context.remoteAddress?.ipAddress ?? "unknown"
        let channel = context.channel
        let decide = self.decide
        let loop = context.eventLoop
        let handler = NIOLoopBound(self, eventLoop: loop)
        let bound = NIOLoopBound(context, eventLoop: loop)
        Task {
            let decision = await decide(request, address, channel)
            loop.execute { handler.value.decided(decision, request: request, context: bound.value) }
        }
    }

    private func decided(_ decision: LiveSources.Decision, request: SourceRequest, context: ChannelHandlerContext) {
        guard case .deciding(let pending, _, _) = state else {
            // The connection closed while it was being decided: a source let
            // in must leave at once, or its station would stay "on the air"
            // with nobody sending and refuse the next source.
            if case .accepted(let sink) = decision { sink.finish() }
            return
        }
        switch decision {
        case .refused(let status, let reason, let message):
            answer(context, status: status, reason: reason, type: "text/plain", body: message + "\n")
        case .updated:
            answer(context, status: 200, reason: "OK", type: "text/xml", body: SourceAnswer.metadataUpdated)
        case .accepted(let sink):
            guard case .stream(let stream) = request else { return }
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: SourceAnswer.accepted(stream))), promise: nil)
            state = .streaming(sink)
            for chunk in pending { take(chunk, context: context) }
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let chunk = unwrapInboundIn(data)
        switch state {
        case .deciding(var pending, let bytes, let idle):
            guard bytes + chunk.readableBytes <= Self.maxPending else {
                logger.info("Source for station \(station) sent too much before it was let in; closed")
                return close(context)
            }
            pending.append(chunk)
            state = .deciding(pending: pending, bytes: bytes + chunk.readableBytes, idle: idle)
        case .streaming:
            take(chunk, context: context)
        case .closed:
            break
        }
    }

    private func take(_ chunk: ByteBuffer, context: ChannelHandlerContext) {
        guard case .streaming(let sink) = state else { return }
        let now = clock.now()
        if bitrate.add(chunk.readableBytes, at: now) {
            logger.info("Source for station \(station) went over the \(bitrate.capBytesPerSecond * 8 / 1000) kbps cap; closed")
            return close(context)
        }
        switch sniff.read(chunk.readableBytesView) {
        case .notMP3:
            logger.info("Source for station \(station) sent something that is not MP3; closed")
            return close(context)
        case .unsure, .mp3:
            sink.yield(chunk)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read {
            switch state {
            case .deciding(let pending, let bytes, let periods) where periods + 1 < Self.idlePeriodsToDecide:
                state = .deciding(pending: pending, bytes: bytes, idle: periods + 1)  // it waits for us
            case .deciding:
                logger.warning("Source for station \(station) was not let in: its check outlasted \(Self.idlePeriodsToDecide) idle timeouts")
                answer(
                    context, status: 503, reason: "Service Unavailable", type: "text/plain",
                    body: "The server is too busy to let the source in now. Try again in a minute.\n",
                    extra: "Retry-After: 60\r\n")
            case .streaming, .closed:
                logger.info("Source for station \(station) sent nothing for its idle timeout; closed")
                close(context)
            }
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if case .streaming(let sink) = state { sink.finish() }
        state = .closed
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        logger.debug("Source connection for station \(station) failed: \(error)")
        close(context)
    }

    private func refuse(_ context: ChannelHandlerContext, _ refusal: SourceRequest.Refusal) {
        switch refusal {
        case .notFound: answer(context, status: 404, reason: "Not Found", type: "text/plain", body: "Sources go to /live/{station}.\n")
        case .unauthorized:
            answer(
                context, status: 401, reason: "Unauthorized", type: "text/plain",
                body: "Send your stream key as the password (Basic authentication).\n",
                extra: "WWW-Authenticate: Basic realm=\"Wavelength live\"\r\n")
        case .methodNotAllowed: answer(context, status: 405, reason: "Method Not Allowed", type: "text/plain", body: "Use PUT or SOURCE.\n")
        case .unsupportedMediaType(let type):
            answer(context, status: 415, reason: "Unsupported Media Type", type: "text/plain", body: "Send MP3 (audio/mpeg), not \(type.isEmpty ? "nothing" : type).\n")
        case .badRequest(let message): answer(context, status: 400, reason: "Bad Request", type: "text/plain", body: message + "\n")
        }
    }

    /// A whole answer, then the connection closes (Icecast's HTTP/1.0 way).
    private func answer(
        _ context: ChannelHandlerContext, status: Int, reason: String, type: String, body: String, extra: String = ""
    ) {
        let text = "HTTP/1.0 \(status) \(reason)\r\nServer: Wavelength\r\nContent-Type: \(type); charset=utf-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\n\(extra)Connection: close\r\n\r\n\(body)"
        state = .closed
        let channel = context.channel  // a Sendable closure may not capture the context
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: text))).whenComplete { _ in channel.close(promise: nil) }
    }

    private func close(_ context: ChannelHandlerContext) {
        if case .streaming(let sink) = state { sink.finish() }
        state = .closed
        context.close(promise: nil)
    }
}

/// What Icecast 2.4.4 answers a source, byte for byte where software reads it.
enum SourceAnswer {
    static let metadataUpdated =
        "<?xml version=\"1.0\"?>\n<iceresponse><message>Metadata update successful</message><return>1</return></iceresponse>\n"

    /// A source let in: software that asked to be told to go on
    /// (`Expect: 100-continue`) is told so, then the answer itself, as
    /// Icecast sends them: liquidsoap reads past the first to the second.
    static func accepted(_ stream: SourceStream) -> String {
        if stream.legacy { return "HTTP/1.0 200 OK\r\n\r\n" }
        if stream.expectsContinue { return "HTTP/1.1 100 Continue\r\nContent-Length: 0\r\n\r\nHTTP/1.0 200 OK\r\n\r\n" }
        return "HTTP/1.0 200 OK\r\n\r\n"
    }
}
