import NIOWebSocket

/// What the rest of the server asks of a live connection's handler. Sent
/// through the pipeline (`fireUserInboundEventTriggered`), which is safe from
/// any thread and reaches the handler on its event loop.
enum LiveSocketEvent: Sendable {
    /// Read from the client again (its queue of messages drained).
    case resumeReading
    /// Send a close frame with this code, then close the connection once the
    /// client answers or `LiveSocketHandler.closeTimeout` passes.
    case end(WebSocketErrorCode, reason: String?)
}
