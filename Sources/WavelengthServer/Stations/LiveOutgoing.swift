/// What waits in a listener's queue to be written to its WebSocket.
///
/// Messages are encoded once per broadcast; the connection's writer adds
/// the sequence number. A pong is encoded at the moment it is written, so its
/// send stamp is as late as possible.
enum LiveOutgoing: Sendable {
    case text(String)
    case pong(nonce: String?, received: Double)
}
