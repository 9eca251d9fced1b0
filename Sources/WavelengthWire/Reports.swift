import WavelengthCore

/// A report: about a chat message (`stationID` names the station, `id`
/// the message), a voice clip, a station or a person (`id`).
public struct ReportRequest: Sendable, Codable, Equatable {
    public var subject: ReportSubject
    public var id: String
    public var stationID: String?
    public var reason: ReportReason
    public var note: String?

    public init(subject: ReportSubject, id: String, stationID: String? = nil, reason: ReportReason, note: String? = nil) {
        self.subject = subject
        self.id = id
        self.stationID = stationID
        self.reason = reason
        self.note = note
    }
}

/// What the reporter is told: the report was kept (or their earlier one
/// about the same thing still waits).
public struct ReportReceipt: Sendable, Codable, Equatable {
    public var id: String
    public var createdAt: EpochMillis

    public init(id: String, createdAt: EpochMillis) {
        self.id = id
        self.createdAt = createdAt
    }
}

/// A report in a moderation queue, with what it was about as it was
/// when reported. `reporterName` only in the administrators' queue: the
/// room's moderators never learn who reported.
public struct ReportView: Sendable, Codable, Equatable {
    public var id: String
    public var subject: ReportSubject
    public var subjectID: String
    public var reason: ReportReason
    public var note: String
    public var stationID: String?
    public var stationName: String?
    public var reportedPersonID: String?
    public var reportedName: String?
    public var content: String
    public var contentAt: EpochMillis?
    /// A clip's audio as reported: `GET /api/reports/{id}/evidence`.
    public var hasEvidence: Bool
    public var createdAt: EpochMillis
    public var status: ReportStatus
    public var closedAt: EpochMillis?
    public var closedByName: String?
    public var action: ReportAction?
    public var closingNote: String?
    public var reporterName: String?
    /// What the viewer may do about it (empty once it is closed).
    public var actions: [ReportAction]

    public init(
        id: String, subject: ReportSubject, subjectID: String, reason: ReportReason, note: String, stationID: String?,
        stationName: String?, reportedPersonID: String?, reportedName: String?, content: String, contentAt: EpochMillis?,
        hasEvidence: Bool, createdAt: EpochMillis, status: ReportStatus, closedAt: EpochMillis?, closedByName: String?,
        action: ReportAction?, closingNote: String?, reporterName: String?, actions: [ReportAction]
    ) {
        self.id = id
        self.subject = subject
        self.subjectID = subjectID
        self.reason = reason
        self.note = note
        self.stationID = stationID
        self.stationName = stationName
        self.reportedPersonID = reportedPersonID
        self.reportedName = reportedName
        self.content = content
        self.contentAt = contentAt
        self.hasEvidence = hasEvidence
        self.createdAt = createdAt
        self.status = status
        self.closedAt = closedAt
        self.closedByName = closedByName
        self.action = action
        self.closingNote = closingNote
        self.reporterName = reporterName
        self.actions = actions
    }
}

/// What a moderator does about a report, and a note for the record.
public struct ReportCloseRequest: Sendable, Codable, Equatable {
    public var action: ReportAction
    public var note: String?

    public init(action: ReportAction, note: String? = nil) {
        self.action = action
        self.note = note
    }
}
