import Foundation
import NIOCore

/// What waits in a listener's queue to be written to its WebSocket.
///
/// Messages are encoded once per broadcast; the connection's writer adds
/// the sequence number. A pong is encoded at the moment it is written, so its
/// send stamp is as late as possible.
enum LiveOutgoing: Sendable {
    /// A broadcast or the first message.
    case text(EncodedMessage)
    /// An answer to something this client sent (counted by its `ReplyWindow`).
    case reply(EncodedMessage)
    case pong(nonce: String?, received: Double)
}

/// A server message's JSON, made into bytes once however many listeners
/// it goes to. Each listener's writer sends its own `{"seq":N,` and then
/// these same bytes: a broadcast to 10,000 listeners copies no message
/// 10,000 times (a 5 KB update was 50 MB of copying per broadcast).
struct EncodedMessage: Sendable, ExpressibleByStringLiteral {
    /// The JSON object without its opening `{`.
    let rest: ByteBuffer

    init(_ json: String) {
        precondition(json.utf8.first == UInt8(ascii: "{"), "a server message is a JSON object")
        rest = ByteBuffer(substring: json.dropFirst())
    }

    /// `json`: an encoded JSON object.
    init(json: Data) {
        precondition(json.first == UInt8(ascii: "{"), "a server message is a JSON object")
        rest = ByteBuffer(bytes: json.dropFirst())
    }

    /// `rest`: a JSON object's bytes after its `{` (another node's message).
    init(rest: ByteBuffer) {
        self.rest = rest
    }

    init(stringLiteral json: String) {
        self.init(json)
    }

    /// The whole JSON text (for in-process readers and tests).
    var text: String { "{" + String(buffer: rest) }
}
