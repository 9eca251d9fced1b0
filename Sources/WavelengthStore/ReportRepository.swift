import WavelengthCore

/// A report about a chat message, a voice clip, a station or a person,
/// with what it was about as it was when reported: the snapshot stays
/// when the content is deleted, renamed or edited.
public struct ReportRecord: Sendable, Equatable, Codable {
    public var id: String
    public var subject: ReportSubject
    /// The message's, clip's, station's or person's id.
    public var subjectID: String
    public var reason: ReportReason
    public var note: String
    /// Only administrators see who reported: never the reported, nor the room's moderators.
    public var reporterID: String
    public var reporterName: String
    /// The station it happened on (a station report: the station).
    public var stationID: StationID?
    public var stationName: String?
    /// Whom it is about (the message's or clip's author, the station's owner, the person).
    public var reportedPersonID: String?
    public var reportedName: String?
    /// What was reported, as text: the message, the station's name and
    /// what it played, the person's name; a clip's length.
    public var content: String
    /// When the content was made (a message's sending), if known.
    public var contentAt: EpochMillis?
    /// A clip's audio as reported, kept beside the database (`reports/`).
    public var evidence: String?
    public var createdAt: EpochMillis
    public var status: ReportStatus
    public var closedAt: EpochMillis?
    public var closedByName: String?
    public var action: ReportAction?
    public var closingNote: String?

    public init(
        id: String, subject: ReportSubject, subjectID: String, reason: ReportReason, note: String, reporterID: String,
        reporterName: String, stationID: StationID?, stationName: String?, reportedPersonID: String?, reportedName: String?,
        content: String, contentAt: EpochMillis? = nil, evidence: String? = nil, createdAt: EpochMillis,
        status: ReportStatus = .open
    ) {
        self.id = id
        self.subject = subject
        self.subjectID = subjectID
        self.reason = reason
        self.note = note
        self.reporterID = reporterID
        self.reporterName = reporterName
        self.stationID = stationID
        self.stationName = stationName
        self.reportedPersonID = reportedPersonID
        self.reportedName = reportedName
        self.content = content
        self.contentAt = contentAt
        self.evidence = evidence
        self.createdAt = createdAt
        self.status = status
    }
}

/// Which reports a queue shows.
public struct ReportFilter: Sendable, Equatable {
    /// Nil: every status.
    public var status: ReportStatus?
    /// Only this station's reports about its room's content (chat and
    /// clips: `ReportSubject.reachesTheRoom`); nil: every report.
    public var roomOf: StationID?
    /// For the next page: reports made before this one (its `createdAt`, then its id).
    public var before: (at: EpochMillis, id: String)?

    public init(status: ReportStatus? = .open, roomOf: StationID? = nil, before: (at: EpochMillis, id: String)? = nil) {
        self.status = status
        self.roomOf = roomOf
        self.before = before
    }

    public static func == (a: ReportFilter, b: ReportFilter) -> Bool {
        a.status == b.status && a.roomOf == b.roomOf && a.before?.at == b.before?.at && a.before?.id == b.before?.id
    }
}

/// How a report was closed.
public struct ReportClosing: Sendable, Equatable {
    public var status: ReportStatus
    public var action: ReportAction
    public var byName: String
    public var note: String
    public var at: EpochMillis

    public init(action: ReportAction, byName: String, note: String, at: EpochMillis) {
        self.status = action == .dismiss ? .dismissed : .actioned
        self.action = action
        self.byName = byName
        self.note = note
        self.at = at
    }
}

/// Reports and the moderation queues. Each report is checked against its
/// reporter's limits and kept in one transaction, so two at once can't
/// both pass the last place.
public protocol ReportRepository: Sendable {
    /// Keeps the report; or, when its reporter's earlier report about the
    /// same thing still waits, answers that one (a second tap files
    /// nothing). Throws `StorageError.reportLimit` past `limits`.
    func fileReport(_ report: ReportRecord, limits: ReportLimits) async throws -> ReportRecord
    func report(id: String) async throws -> ReportRecord?
    /// Newest first.
    func reports(_ filter: ReportFilter, limit: Int) async throws -> [ReportRecord]
    /// Closes a waiting report, with the audit entry when given, in one
    /// transaction. Nil when it doesn't wait (closed by someone else first).
    func closeReport(id: String, _ closing: ReportClosing, audit: AuditEntry?) async throws -> ReportRecord?
    /// Reports waiting on the whole server.
    func openReportCount() async throws -> Int
}

/// One person's blocks: whom they no longer see in chats and clips.
public protocol BlockRepository: Sendable {
    /// Idempotent. Throws `StorageError.blockLimit` past `limit`.
    func block(_ blockerID: String, _ blockedID: String, at: EpochMillis, limit: Int) async throws
    func unblock(_ blockerID: String, _ blockedID: String) async throws
    /// Newest first.
    func blocked(by blockerID: String) async throws -> [PersonRecord]
    func blockedIDs(by blockerID: String) async throws -> Set<String>
    /// Everyone a block stands between this person and, either way: whom
    /// they block and who blocks them.
    func blockedEitherWay(_ personID: String) async throws -> Set<String>
}

extension BlockRepository {
    /// Whether either of the two blocks the other.
    public func blockStands(between one: String, and other: String) async throws -> Bool {
        try await blockedEitherWay(one).contains(other)
    }
}
