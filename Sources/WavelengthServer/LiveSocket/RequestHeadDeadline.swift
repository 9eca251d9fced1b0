import NIOCore

/// Closes a connection whose first request head hasn't arrived in full
/// within `timeout` of connecting. A slowloris client (nothing sent, or a
/// head dripped a byte at a time and never ended) otherwise holds a socket
/// and a task for good. The deadline is absolute, not an idle timer, so
/// dripping doesn't renew it; icecast's own `header-timeout` is 15 s.
///
/// First in the pipeline; `LiveUpgradeChannel` takes it out once NIO's
/// decoder has the head (then a kept-alive connection's idle timeout, or a
/// stream listener's stall timeout, takes over).
final class RequestHeadDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context: context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    private func start(context: ChannelHandlerContext) {
        guard deadline == nil else { return }
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) {
            context.close(promise: nil)
        }
    }
}
