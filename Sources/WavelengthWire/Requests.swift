/// Size limits on everything a client sends. The server refuses anything
/// larger with a clear error before it touches state.
public enum WireLimits {
    public static let maxHTTPBodyBytes = 16 * 1024
    public static let maxWebSocketMessageBytes = 8 * 1024
    public static let maxWebSocketFrameBytes = 64 * 1024
    public static let maxCommandIDLength = 64
    public static let maxNameLength = 80
    public static let maxQueryLength = 200
    public static let maxIDLength = 64
    /// Upcoming entries in a window sent on the WebSocket.
    public static let liveUpNextLimit = 50
}

public struct CreateStationRequest: Sendable, Codable, Equatable {
    public var name: String
    public var visibility: StationVisibility?

    public init(name: String, visibility: StationVisibility? = nil) {
        self.name = name
        self.visibility = visibility
    }
}

public struct CreateStationResponse: Sendable, Codable, Equatable {
    public var station: StationView

    public init(station: StationView) {
        self.station = station
    }
}

/// A DJ command with the client-chosen id that makes resending it safe.
public struct CommandRequest: Sendable, Codable, Equatable {
    public var id: String
    public var command: StationCommand
    /// The DJ epoch the sender believes in. When given and no longer current
    /// (the DJ role has changed hands since), the command is refused as stale.
    public var epoch: Int64?

    public init(id: String, command: StationCommand, epoch: Int64? = nil) {
        self.id = id
        self.command = command
        self.epoch = epoch
    }
}

public struct CommandAck: Sendable, Codable, Equatable {
    public var id: String
    /// The station revision the command produced.
    public var revision: Int64
    /// True when the command had been applied before and was not applied again.
    public var duplicate: Bool

    public init(id: String, revision: Int64, duplicate: Bool) {
        self.id = id
        self.revision = revision
        self.duplicate = duplicate
    }
}

/// What the caller may do on a station, so a client can show the right
/// screen without trying.
public struct StationAccess: Sendable, Codable, Equatable {
    public var role: StationRole
    public var canListen: Bool
    /// Why not, when `canListen` is false: `sign_in_required`, `not_a_member`, `banned`.
    public var reason: String?

    public init(role: StationRole, canListen: Bool, reason: String?) {
        self.role = role
        self.canListen = canListen
        self.reason = reason
    }
}

/// The tracks a station's robot DJ picks from. Empty means the whole library.
public struct StationPool: Sendable, Codable, Equatable {
    public var trackIDs: [TrackID]

    public static let maxTracks = 500

    public init(trackIDs: [TrackID]) {
        self.trackIDs = trackIDs
    }
}

public struct SearchResponse: Sendable, Codable, Equatable {
    public var query: String
    public var tracks: [TrackSummary]

    public init(query: String, tracks: [TrackSummary]) {
        self.query = query
        self.tracks = tracks
    }
}

/// The body of every 4xx/5xx answer: `{"error": {"message": …, "code": …}}`.
public struct ErrorBody: Sendable, Codable, Equatable {
    public struct Detail: Sendable, Codable, Equatable {
        public var message: String
        public var code: String?
    }

    public var error: Detail

    public init(message: String, code: String? = nil) {
        self.error = Detail(message: message, code: code)
    }
}
