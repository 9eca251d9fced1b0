/// What waits in a listener's queue to be written to its WebSocket.
///
/// Messages are encoded once per broadcast; the connection's writer adds
/// the sequence number. A pong is encoded at the moment it is written, so its
/// send stamp is as late as possible.
enum LiveOutgoing: Sendable {
    /// A broadcast or the first message.
    case text(String)
    /// An answer to something this client sent (counted by its `ReplyWindow`).
    case reply(String)
    case pong(nonce: String?, received: Double)
}
