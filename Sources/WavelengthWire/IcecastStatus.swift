/// `GET /status-json.xsl` as Icecast 2.4 answers it, so existing now-playing
/// widgets and AzuraCast's Icecast adapter read a Wavelength server
/// unchanged. Icecast's own quirk is kept: `source` is an object when one
/// mount is on the air, an array when several are, and absent when none is.
public struct IcecastStatus: Sendable, Codable, Equatable {
    public var icestats: Stats

    public init(icestats: Stats) {
        self.icestats = icestats
    }

    public struct Stats: Sendable, Codable, Equatable {
        public var admin: String
        public var host: String
        public var location: String
        public var serverID: String
        public var serverStart: String
        public var serverStartISO8601: String
        public var sources: [Source]

        public init(
            admin: String, host: String, location: String, serverID: String, serverStart: String,
            serverStartISO8601: String, sources: [Source]
        ) {
            self.admin = admin
            self.host = host
            self.location = location
            self.serverID = serverID
            self.serverStart = serverStart
            self.serverStartISO8601 = serverStartISO8601
            self.sources = sources
        }

        enum CodingKeys: String, CodingKey {
            case admin, host, location, source
            case serverID = "server_id"
            case serverStart = "server_start"
            case serverStartISO8601 = "server_start_iso8601"
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            admin = try c.decode(String.self, forKey: .admin)
            host = try c.decode(String.self, forKey: .host)
            location = try c.decode(String.self, forKey: .location)
            serverID = try c.decode(String.self, forKey: .serverID)
            serverStart = try c.decode(String.self, forKey: .serverStart)
            serverStartISO8601 = try c.decode(String.self, forKey: .serverStartISO8601)
            if let one = try? c.decode(Source.self, forKey: .source) {
                sources = [one]
            } else {
                sources = try c.decodeIfPresent([Source].self, forKey: .source) ?? []
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(admin, forKey: .admin)
            try c.encode(host, forKey: .host)
            try c.encode(location, forKey: .location)
            try c.encode(serverID, forKey: .serverID)
            try c.encode(serverStart, forKey: .serverStart)
            try c.encode(serverStartISO8601, forKey: .serverStartISO8601)
            switch sources.count {
            case 0: break
            case 1: try c.encode(sources[0], forKey: .source)
            default: try c.encode(sources, forKey: .source)
            }
        }
    }

    /// One mount: a station's stream.
    public struct Source: Sendable, Codable, Equatable {
        public var audioInfo: String
        public var bitrate: Int
        public var genre: String
        public var listenerPeak: Int
        public var listeners: Int
        public var listenURL: String
        public var serverDescription: String
        public var serverName: String
        public var serverType: String
        public var serverURL: String
        public var streamStart: String
        public var streamStartISO8601: String
        /// "Artist - Title", as the stream's ICY metadata says it.
        public var title: String
        public var artist: String?
        /// From `audio_info`, as integers, as Icecast lists them; absent
        /// when the source didn't say.
        public var channels: Int?
        public var samplerate: Int?

        public init(
            audioInfo: String, bitrate: Int, genre: String, listenerPeak: Int, listeners: Int, listenURL: String,
            serverDescription: String, serverName: String, serverType: String, serverURL: String,
            streamStart: String, streamStartISO8601: String, title: String, artist: String?, channels: Int? = nil,
            samplerate: Int? = nil
        ) {
            self.audioInfo = audioInfo
            self.bitrate = bitrate
            self.genre = genre
            self.listenerPeak = listenerPeak
            self.listeners = listeners
            self.listenURL = listenURL
            self.serverDescription = serverDescription
            self.serverName = serverName
            self.serverType = serverType
            self.serverURL = serverURL
            self.streamStart = streamStart
            self.streamStartISO8601 = streamStartISO8601
            self.title = title
            self.artist = artist
            self.channels = channels
            self.samplerate = samplerate
        }

        enum CodingKeys: String, CodingKey {
            case bitrate, genre, listeners, title, artist, channels, samplerate
            case audioInfo = "audio_info"
            case listenerPeak = "listener_peak"
            case listenURL = "listenurl"
            case serverDescription = "server_description"
            case serverName = "server_name"
            case serverType = "server_type"
            case serverURL = "server_url"
            case streamStart = "stream_start"
            case streamStartISO8601 = "stream_start_iso8601"
        }
    }
}
