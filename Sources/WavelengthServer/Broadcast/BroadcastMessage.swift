import Foundation

/// What a browser going live says on its broadcast socket, besides the audio
/// (binary messages).
enum BroadcastMessage: Decodable, Equatable {
    /// Go on the air; MediaRecorder's audio follows once the server says `onAir`.
    case start(title: String?)
    /// What listeners see the show as from now on.
    case title(String)

    /// The longest text message read.
    static let maxBytes = 1_024
    static let maxTitle = 200

    private enum CodingKeys: String, CodingKey { case type, title, mimeType }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let title = try container.decodeIfPresent(String.self, forKey: .title)?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        if let title, title.count > Self.maxTitle {
            throw DecodingError.dataCorruptedError(
                forKey: .title, in: container, debugDescription: "A title is at most \(Self.maxTitle) characters.")
        }
        switch try container.decode(String.self, forKey: .type) {
        case "start":
            if let type = try container.decodeIfPresent(String.self, forKey: .mimeType), !type.hasPrefix("audio/webm") {
                throw DecodingError.dataCorruptedError(
                    forKey: .mimeType, in: container, debugDescription: "Send audio/webm (Opus) from MediaRecorder.")
            }
            self = .start(title: title?.isEmpty == false ? title : nil)
        case "title":
            self = .title(title ?? "")
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container, debugDescription: "Messages are start or title.")
        }
    }
}

/// What the server says on a broadcast socket.
enum BroadcastReply: Encodable {
    case onAir(stationID: String)
    case error(code: String, message: String)

    private enum CodingKeys: String, CodingKey { case type, stationID, code, message }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .onAir(let stationID):
            try container.encode("onAir", forKey: .type)
            try container.encode(stationID, forKey: .stationID)
        case .error(let code, let message):
            try container.encode("error", forKey: .type)
            try container.encode(code, forKey: .code)
            try container.encode(message, forKey: .message)
        }
    }

    var text: String {
        (try? String(decoding: JSONEncoder().encode(self), as: UTF8.self)) ?? "{\"type\":\"error\"}"
    }
}
