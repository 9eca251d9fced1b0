import NIOCore
import NIOEmbedded
@testable import WavelengthServer

extension NIOAsyncTestingChannel {
    /// What `IdleStateHandler` sends each time nothing was read for its
    /// timeout, `times` times, on the channel's loop.
    func idleTimeoutPasses(times: Int = 1) async throws {
        try await testingEventLoop.executeInContext {
            for _ in 0..<times { self.pipeline.fireUserInboundEventTriggered(IdleStateHandler.IdleStateEvent.read) }
        }
    }
}

extension AsyncStream.Continuation where Element == LiveSources.Decision {
    /// Lets a source in after its connection was answered and closed, and
    /// returns once its audio has ended: a station must not stay on the air
    /// with nobody sending.
    func acceptTooLate() async {
        let (chunks, sink) = AsyncStream<ByteBuffer>.makeStream()
        yield(.accepted(sink))
        for await _ in chunks {}
    }
}
