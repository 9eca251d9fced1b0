import WavelengthCore

/// Where a person stands on this server: an administrator or not, and
/// suspended or not (with the reason they are told).
public struct PersonStanding: Sendable, Equatable {
    public var isAdministrator: Bool
    public var suspendedAt: EpochMillis?
    public var suspensionReason: String?
    /// A sign-up an administrator hasn't approved yet (`RegistrationRepository`).
    public var awaitingApprovalSince: EpochMillis?

    public init(
        isAdministrator: Bool = false, suspendedAt: EpochMillis? = nil, suspensionReason: String? = nil,
        awaitingApprovalSince: EpochMillis? = nil
    ) {
        self.isAdministrator = isAdministrator
        self.suspendedAt = suspendedAt
        self.suspensionReason = suspensionReason
        self.awaitingApprovalSince = awaitingApprovalSince
    }

    public var isSuspended: Bool { suspendedAt != nil }
    public var isAwaitingApproval: Bool { awaitingApprovalSince != nil }
}

/// One thing an administrator did (or the host's shell, `actorID` nil):
/// who, what, to whom, when and why. Names are kept as they were, so the
/// log reads the same after a rename or a deletion.
public struct AuditEntry: Sendable, Equatable, Codable {
    public var id: Int64?
    public var at: EpochMillis
    public var actorID: String?
    public var actorName: String
    /// `grant-admin`, `revoke-admin`, `suspend`, `unsuspend`, …
    public var action: String
    /// `person`, `station`, …
    public var subjectKind: String
    public var subjectID: String
    public var subjectName: String
    public var reason: String

    public init(
        id: Int64? = nil, at: EpochMillis, actorID: String?, actorName: String, action: String, subjectKind: String,
        subjectID: String, subjectName: String, reason: String
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

/// The operator's side of storage: administrators, suspensions and the
/// audit log. Each change is written with its audit entry in one
/// transaction: an action is never done without its record, nor recorded
/// without being done.
public protocol OperatorRepository: Sendable {
    /// Nil when there is no such person.
    func standing(personID: String) async throws -> PersonStanding?
    /// Makes the user with `handle` an administrator (or no longer one).
    /// Nil when no user has that handle; the entry is written only when
    /// it changed something. A sign-up waiting for approval that is made
    /// an administrator is approved with it: the shell trusts them.
    func setAdministrator(handle: String, _ isAdministrator: Bool, audit: AuditEntry) async throws -> PersonRecord?
    /// Suspends the person and revokes every session they hold. False when
    /// there is no such person.
    func suspend(personID: String, reason: String, audit: AuditEntry) async throws -> Bool
    /// False when there is no such person.
    func unsuspend(personID: String, audit: AuditEntry) async throws -> Bool
    /// An action that changes nothing stored (a rescan asked for), logged.
    func record(_ entry: AuditEntry) async throws
    /// Newest first; `before`: an entry's id, for the page after it.
    func auditLog(before: Int64?, limit: Int) async throws -> [AuditEntry]
    func administrators() async throws -> [PersonRecord]
    /// Deletes a station and everything of it (its timeline, history, chat,
    /// clips' rows, members, shows…) with the audit entry, in one
    /// transaction. False when there is no such station.
    func deleteStation(id: StationID, audit: AuditEntry) async throws -> Bool
    /// Hides a station from the dial and every listing (or shows it again);
    /// it still plays for anyone with its link. False when there is no such station.
    func setHiddenFromDial(stationID: StationID, _ hidden: Bool, audit: AuditEntry) async throws -> Bool
    /// Which of `ids` an administrator hid from the dial.
    func hiddenFromDial(_ ids: [StationID]) async throws -> Set<StationID>
    /// Deletes a person and what is theirs, with the audit entry, in one
    /// transaction: their stations (with everything of them), sessions,
    /// follows, memberships, chat messages, clips' rows, likes, reminders,
    /// keys, blocks, server invites and uploads. Nil when there is no such person.
    func deletePerson(id: String, audit: AuditEntry) async throws -> DeletedPerson?
    /// The person's sessions that still work at `now`, newest first.
    func activeSessions(personID: String, at now: EpochMillis) async throws -> [SessionRecord]
    /// How many users (not guests), stations and waiting sign-ups the server holds.
    func serverCounts() async throws -> ServerCounts
}

/// The server's size, for the control room.
public struct ServerCounts: Sendable, Equatable {
    public var users: Int
    public var stations: Int
    public var waitingSignups: Int

    public init(users: Int, stations: Int, waitingSignups: Int) {
        self.users = users
        self.stations = stations
        self.waitingSignups = waitingSignups
    }
}

/// What went with a deleted person: the server stops the stations and
/// removes the clips' and uploads' files.
public struct DeletedPerson: Sendable, Equatable {
    public var stations: [StationID]
    public var clips: [String]
    /// Their uploaded tracks, shared or not: the rows are gone, the files
    /// are the server's to remove.
    public var uploads: [TrackRecord]

    public init(stations: [StationID], clips: [String], uploads: [TrackRecord] = []) {
        self.stations = stations
        self.clips = clips
        self.uploads = uploads
    }
}
