import Foundation
import NIOCore
import WavelengthCore
import WavelengthStore

/// What a relaying node sends the node running a station, over the station's
/// feed (one WebSocket per station and relaying node, see `StationFeed`): a
/// listener here joins, says something, or leaves. Each listener is named
/// by this node's number for its connection. JSON text frames.
enum FeedUp: Codable, Sendable, Equatable {
    struct Join: Codable, Sendable, Equatable {
        var listener: UInt64
        /// Who the relaying node authenticated (it reads the same store).
        var person: PersonRecord?
        var administrator: Bool
        var device: String?
        /// The client's address, as the relaying node saw it.
        var address: String
        var since: Int64?
        var compactUpdates: Bool
    }

    case join(Join)
    /// A message the client sent, as it sent it (checked for size and JSON there).
    case say(listener: UInt64, text: String, receivedAt: Double)
    case leave(listener: UInt64)

    /// A client's largest message (`WireLimits.maxWebSocketMessageBytes`),
    /// escaped, with a person record around it: the frame limit every
    /// WebSocket to this server has (`WireLimits.maxWebSocketFrameBytes`).
    static let maxBytes = 64 * 1024
}

/// What the node running a station sends a relaying node: messages for its
/// listeners, and each listener's fate. Binary frames: a kind byte, a count,
/// that many listener numbers (UInt64, big-endian), then the payload. A
/// broadcast is one frame naming every listener it goes to, its message
/// bytes sent once.
struct FeedDown: Sendable, Equatable {
    enum Kind: UInt8, Sendable {
        /// The payload is a server message without its opening `{` (`EncodedMessage.rest`).
        case message = 1
        /// The same, as an answer to something the listener sent.
        case reply = 2
        case admitted = 3
        /// The payload is `Refusal`'s JSON.
        case refused = 4
        /// The owner let these listeners go: they reconnect.
        case closed = 5
    }

    struct Refusal: Codable, Sendable, Equatable {
        var code: String
        var message: String
    }

    var kind: Kind
    var listeners: [UInt64]
    var payload: ByteBuffer

    /// The largest frame a relaying node takes: a snapshot for thousands.
    static let maxBytes = 16 << 20

    func encoded(_ allocator: ByteBufferAllocator) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: 5 + 8 * listeners.count + payload.readableBytes)
        buffer.writeInteger(kind.rawValue)
        buffer.writeInteger(UInt32(listeners.count))
        for listener in listeners { buffer.writeInteger(listener) }
        var payload = payload
        buffer.writeBuffer(&payload)
        return buffer
    }

    /// Nil when the frame is not one (a newer node's kind, a cut frame).
    init?(decoding frame: ByteBuffer) {
        var frame = frame
        guard let raw = frame.readInteger(as: UInt8.self), let kind = Kind(rawValue: raw),
            let count = frame.readInteger(as: UInt32.self), Int(count) * 8 <= frame.readableBytes
        else { return nil }
        var listeners: [UInt64] = []
        listeners.reserveCapacity(Int(count))
        for _ in 0..<count {
            guard let listener = frame.readInteger(as: UInt64.self) else { return nil }
            listeners.append(listener)
        }
        self.init(kind: kind, listeners: listeners, payload: frame)
    }

    init(kind: Kind, listeners: [UInt64], payload: ByteBuffer = ByteBuffer()) {
        self.kind = kind
        self.listeners = listeners
        self.payload = payload
    }
}
