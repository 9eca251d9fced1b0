import Foundation

/// A request from broadcast software, read the way Icecast reads it:
/// `PUT /live/{station}` (or the legacy `SOURCE`) with `Authorization:
/// Basic` (any user, the stream key as the password), the audio's
/// `Content-Type`, and `ice-*` headers describing the show; or a metadata
/// update, `GET /admin/metadata?mode=updinfo&mount=/live/{station}&song=…`
/// (Mixxx sends `artist` and `title` instead of `song`).
public enum SourceRequest: Sendable, Equatable {
    case stream(SourceStream)
    case metadata(SourceMetadata)

    /// Why a request is refused, before any audio is read.
    public enum Refusal: Error, Sendable, Equatable {
        case notFound
        case unauthorized
        case methodNotAllowed
        case unsupportedMediaType(String)
        case badRequest(String)
    }

    /// The audio types a source may send: MP3, which every player and our
    /// own stream read.
    public static let audioTypes: Set<String> = ["audio/mpeg", "audio/mp3"]

    public static func parse(method: String, uri: String, headers: [(name: String, value: String)]) -> Result<
        SourceRequest, Refusal
    > {
        func header(_ name: String) -> String? {
            headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
        let (path, query) = split(uri)
        guard let key = password(header("Authorization")) else { return .failure(.unauthorized) }
        switch method {
        case "PUT", "SOURCE":
            guard let station = station(inMount: path) else { return .failure(.notFound) }
            let type = (header("Content-Type") ?? "").split(separator: ";").first.map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            } ?? ""
            guard audioTypes.contains(type) else { return .failure(.unsupportedMediaType(String(type.prefix(60)))) }
            let info = { (name: String) in header(name).map { String($0.unicodeScalars.filter { $0.value >= 0x20 }.prefix(200)) } }
            return .success(
                .stream(
                    SourceStream(
                        stationID: station, key: key, contentType: type,
                        expectsContinue: header("Expect")?.lowercased() == "100-continue",
                        legacy: method == "SOURCE",
                        name: info("ice-name"), genre: info("ice-genre"), description: info("ice-description"),
                        audioInfo: info("ice-audio-info"), url: info("ice-url"))))
        case "GET":
            guard path == "/admin/metadata" else { return .failure(.notFound) }
            let fields = form(query)
            guard fields["mode"] == "updinfo" else { return .failure(.badRequest("mode must be updinfo")) }
            guard let mount = fields["mount"], let station = station(inMount: mount) else { return .failure(.notFound) }
            var title = fields["song"] ?? ""
            if title.isEmpty {
                title = [fields["artist"], fields["title"]].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " - ")
            }
            let clean = String(title.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(300))
            return .success(.metadata(SourceMetadata(stationID: station, key: key, title: clean)))
        default:
            return .failure(.methodNotAllowed)
        }
    }

    /// `/live/{station}` or `/live/{station}.mp3`.
    static func station(inMount path: String) -> StationID? {
        guard path.hasPrefix("/live/") else { return nil }
        var id = String(path.dropFirst("/live/".count))
        if id.hasSuffix(".mp3") { id.removeLast(4) }
        guard (1...64).contains(id.utf8.count), !id.contains(".."),
            id.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0)) })
        else { return nil }
        return id
    }

    /// The password of `Basic base64(user:password)`.
    static func password(_ authorization: String?) -> String? {
        guard let authorization, authorization.utf8.count <= 512 else { return nil }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic",
            let data = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
            let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return nil }
        let key = String(text[text.index(after: colon)...])
        return key.isEmpty ? nil : key
    }

    static func split(_ uri: String) -> (String, String) {
        guard let mark = uri.firstIndex(of: "?") else { return (uri, "") }
        return (String(uri[..<mark]), String(uri[uri.index(after: mark)...]))
    }

    /// A query string's fields, `+` as a space, percent-escapes decoded.
    static func form(_ query: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in query.split(separator: "&").prefix(20) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (s: Substring) in
                String(s).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(s)
            }
            fields[decode(parts[0])] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return fields
    }
}

/// A source asking to go live on a station.
public struct SourceStream: Sendable, Equatable {
    public var stationID: StationID
    /// The stream key it sent (never logged).
    public var key: String
    public var contentType: String
    /// `Expect: 100-continue`: it waits for "100 Continue" before sending audio.
    public var expectsContinue: Bool
    /// The legacy `SOURCE` method, answered "HTTP/1.0 200 OK".
    public var legacy: Bool
    public var name: String?
    public var genre: String?
    public var description: String?
    /// `samplerate=44100;bitrate=128;channels=2`.
    public var audioInfo: String?
    public var url: String?

    public init(
        stationID: StationID, key: String, contentType: String, expectsContinue: Bool = false, legacy: Bool = false,
        name: String? = nil, genre: String? = nil, description: String? = nil, audioInfo: String? = nil, url: String? = nil
    ) {
        self.stationID = stationID
        self.key = key
        self.contentType = contentType
        self.expectsContinue = expectsContinue
        self.legacy = legacy
        self.name = name
        self.genre = genre
        self.description = description
        self.audioInfo = audioInfo
        self.url = url
    }
}

/// A source's "now playing" update.
public struct SourceMetadata: Sendable, Equatable {
    public var stationID: StationID
    public var key: String
    public var title: String

    public init(stationID: StationID, key: String, title: String) {
        self.stationID = stationID
        self.key = key
        self.title = title
    }
}
