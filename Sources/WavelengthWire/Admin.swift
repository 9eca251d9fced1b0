import WavelengthCore

/// Limits on what administrators send.
public enum AdminLimits {
    public static let reasonBytes = 1...500
    public static let pageSize = 1...100
}

/// A person as an administrator sees them.
public struct AdminPersonView: Sendable, Codable, Equatable {
    public var person: PersonView
    public var isAdministrator: Bool
    public var suspendedAt: EpochMillis?
    public var suspensionReason: String?

    public init(person: PersonView, isAdministrator: Bool, suspendedAt: EpochMillis?, suspensionReason: String?) {
        self.person = person
        self.isAdministrator = isAdministrator
        self.suspendedAt = suspendedAt
        self.suspensionReason = suspensionReason
    }
}

/// Why an administrator does something: written to the audit log, and for
/// a suspension, told to the person when they try to sign in.
public struct AdminActionRequest: Sendable, Codable, Equatable {
    public var reason: String

    public init(reason: String) {
        self.reason = reason
    }
}

/// One line of the audit log.
public struct AuditEntryView: Sendable, Codable, Equatable {
    public var id: Int64
    public var at: EpochMillis
    /// Nil for the host's shell.
    public var actorID: String?
    public var actorName: String
    public var action: String
    public var subjectKind: String
    public var subjectID: String
    public var subjectName: String
    public var reason: String

    public init(
        id: Int64, at: EpochMillis, actorID: String?, actorName: String, action: String, subjectKind: String, subjectID: String,
        subjectName: String, reason: String
    ) {
        self.id = id
        self.at = at
        self.actorID = actorID
        self.actorName = actorName
        self.action = action
        self.subjectKind = subjectKind
        self.subjectID = subjectID
        self.subjectName = subjectName
        self.reason = reason
    }
}

/// Where the library's rescans stand, for the control room's "Scan now".
public struct LibraryScanStatus: Sendable, Codable, Equatable {
    public struct Last: Sendable, Codable, Equatable {
        public var added: Int
        public var updated: Int
        public var moved: Int
        public var removed: Int
        public var failed: Int
        public var seconds: Double

        public init(added: Int, updated: Int, moved: Int, removed: Int, failed: Int, seconds: Double) {
            self.added = added
            self.updated = updated
            self.moved = moved
            self.removed = removed
            self.failed = failed
            self.seconds = seconds
        }
    }

    public var scanning: Bool
    /// Folders waiting for the next rescan.
    public var queued: Bool
    /// How many folders the rescan under way covers.
    public var folders: Int?
    /// The last rescan this run, if any.
    public var last: Last?
    /// False where the library isn't rescanned while the server runs
    /// (several nodes, or no library).
    public var available: Bool

    public init(scanning: Bool, queued: Bool = false, folders: Int? = nil, last: Last? = nil, available: Bool = true) {
        self.scanning = scanning
        self.queued = queued
        self.folders = folders
        self.last = last
        self.available = available
    }
}

/// The server at a glance, for the control room (`GET /api/admin/overview`).
/// Counts are this node's.
public struct ServerOverview: Sendable, Codable, Equatable {
    public struct Warning: Sendable, Codable, Equatable {
        public var at: EpochMillis
        /// `warning`, `error` or `critical`.
        public var level: String
        public var message: String

        public init(at: EpochMillis, level: String, message: String) {
            self.at = at
            self.level = level
            self.message = message
        }
    }

    /// Stations someone listens to here.
    public var stationsOnAir: Int
    public var stations: Int
    /// People listening, each once; and presences by kind.
    public var listeners: Int
    public var appListeners: Int
    public var streamListeners: Int
    public var liveSources: Int
    public var people: Int
    /// Of one core, since the control room last asked (nil where unknown).
    public var cpuPercent: Double?
    public var memoryBytes: Int64?
    public var cores: Int
    public var dataFolderBytes: Int64?
    public var libraryBytes: Int64?
    public var tracks: Int
    public var tracksAnalyzed: Int
    public var waitingSignups: Int
    public var uptimeSeconds: Int64
    /// Newest first.
    public var warnings: [Warning]

    public init(
        stationsOnAir: Int, stations: Int, listeners: Int, appListeners: Int, streamListeners: Int, liveSources: Int, people: Int,
        cpuPercent: Double?, memoryBytes: Int64?, cores: Int, dataFolderBytes: Int64?, libraryBytes: Int64?, tracks: Int,
        tracksAnalyzed: Int, waitingSignups: Int, uptimeSeconds: Int64, warnings: [Warning]
    ) {
        self.stationsOnAir = stationsOnAir
        self.stations = stations
        self.listeners = listeners
        self.appListeners = appListeners
        self.streamListeners = streamListeners
        self.liveSources = liveSources
        self.people = people
        self.cpuPercent = cpuPercent
        self.memoryBytes = memoryBytes
        self.cores = cores
        self.dataFolderBytes = dataFolderBytes
        self.libraryBytes = libraryBytes
        self.tracks = tracks
        self.tracksAnalyzed = tracksAnalyzed
        self.waitingSignups = waitingSignups
        self.uptimeSeconds = uptimeSeconds
        self.warnings = warnings
    }
}

/// A password reset link an administrator made (shown this once: the
/// server keeps its hash), to send to the person however they reach them.
public struct PasswordResetLink: Sendable, Codable, Equatable {
    /// `/#/reset/TOKEN`, after `--public-url` when it is set.
    public var url: String
    public var expiresAt: EpochMillis

    public init(url: String, expiresAt: EpochMillis) {
        self.url = url
        self.expiresAt = expiresAt
    }
}

/// Who a live reset link is for, so the page can say whose password it sets.
public struct PasswordResetLookup: Sendable, Codable, Equatable {
    public var handle: String
    public var displayName: String

    public init(handle: String, displayName: String) {
        self.handle = handle
        self.displayName = displayName
    }
}

public struct PasswordResetRequest: Sendable, Codable, Equatable {
    public var token: String
    public var newPassword: String

    public init(token: String, newPassword: String) {
        self.token = token
        self.newPassword = newPassword
    }
}

/// A person as an administrator looks them up: where they stand, the
/// stations they own and the sessions they hold.
public struct AdminPersonDetail: Sendable, Codable, Equatable {
    public struct Session: Sendable, Codable, Equatable {
        /// `cookie` (a browser) or `bearer` (an app or script).
        public var kind: String
        public var createdAt: EpochMillis
        public var expiresAt: EpochMillis

        public init(kind: String, createdAt: EpochMillis, expiresAt: EpochMillis) {
            self.kind = kind
            self.createdAt = createdAt
            self.expiresAt = expiresAt
        }
    }

    public var standing: AdminPersonView
    public var stations: [StationView]
    public var sessions: [Session]
    /// The stations an administrator hid from the dial.
    public var hiddenStations: [String] = []

    public init(standing: AdminPersonView, stations: [StationView], sessions: [Session]) {
        self.standing = standing
        self.stations = stations
        self.sessions = sessions
    }
}
