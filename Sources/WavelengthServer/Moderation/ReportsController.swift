import Foundation
import Hummingbird
import WavelengthCore
import WavelengthStore
import WavelengthWire

/// Reports and the moderation queues. Anyone with a session (a guest
/// too) reports a chat message, a voice clip, a station or a person; the
/// report keeps what it was about as it was. The station's owner and
/// co-DJs see reports about their room's chat and clips, the
/// administrators every report, and each acts within `ReportRules`. The
/// reported person never sees a report, and only administrators see who made it.
struct ReportsController {
    let reports: any ReportRepository
    let people: any PeopleRepository
    let operators: any OperatorRepository
    let stations: any StationRepository
    let chats: any ChatRepository
    let clips: any ClipRepository
    let evidence: ReportEvidence
    let clipFiles: ClipStore
    let directory: StationDirectory
    let gate: StationGate
    /// Reports per client address (`AttemptGuard.Target.report`).
    let attempts: AttemptGuard
    let clock: any ServerClock
    let removal: StationRemoval
    let deletion: StationDeletion
    var limits = ReportLimits()
    let files = FileResponder()

    init(
        storage: any Storage, evidence: ReportEvidence, clipFiles: ClipStore, directory: StationDirectory, gate: StationGate,
        attempts: AttemptGuard, clock: any ServerClock, removal: StationRemoval, deletion: StationDeletion
    ) {
        self.attempts = attempts
        (reports, people, operators, stations, chats, clips) = (storage, storage, storage, storage, storage, storage)
        self.evidence = evidence
        self.clipFiles = clipFiles
        self.directory = directory
        self.gate = gate
        self.clock = clock
        self.removal = removal
        self.deletion = deletion
    }

    func addRoutes(to router: Router<AppRequestContext>) {
        router.post("/api/reports", use: file)
        router.get("/api/admin/reports", use: adminQueue)
        router.get("/api/stations/{id}/reports", use: stationQueue)
        router.get("/api/reports/{id}/evidence", use: evidenceAudio)
        router.post("/api/reports/{id}/close", use: close)
    }

    // MARK: Reporting

    @Sendable func file(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<ReportReceipt> {
        guard let reporter = context.caller.person else {
            throw APIError(.unauthorized, code: .signInRequired, "Sign in, or join a station with a name, to report something.")
        }
        let body = try await request.decode(as: ReportRequest.self, context: context)
        let note = try Self.note(body.note)
        let subjectID = try Self.subjectID(body.id)
        let id = "r" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        var report = try await snapshot(body.subject, subjectID, stationID: body.stationID, for: context.caller)
        guard report.reportedPersonID != reporter.id else {
            throw APIError(.forbidden, code: .forbidden, "You can't report yourself.")
        }
        report.id = id
        report.reason = body.reason
        report.note = note
        report.reporterID = reporter.id
        report.reporterName = reporter.handle.map { "@\($0)" } ?? reporter.displayName
        report.createdAt = clock.now()
        if body.subject == .clip { report.evidence = evidence.keep(clipFiles.path(for: subjectID), as: id) }
        let kept: ReportRecord
        let (filing, limits, reports) = (report, limits, reports)
        do {
            // One address's reports count together, kept or not: the guests
            // one network can make can't fill the moderators' queue.
            kept = try await attempts.attempt(.report(address: context.remoteAddress), isFailure: { _ in true }) {
                try await reports.fileReport(filing, limits: limits)
            }
        } catch StorageError.reportLimit(let why) {
            report.evidence.map(evidence.remove)
            throw APIError(.tooManyRequests, code: .reportLimit, why)
        } catch {
            report.evidence.map(evidence.remove)
            throw error
        }
        if kept.id != report.id { report.evidence.map(evidence.remove) }
        return EditedResponse(status: .created, response: ReportReceipt(id: kept.id, createdAt: kept.createdAt))
    }

    /// The report's subject as it is now, which the caller may see (a
    /// station they may listen to); ids and reason filled in by `file`.
    private func snapshot(_ subject: ReportSubject, _ id: String, stationID: String?, for caller: Caller) async throws
        -> ReportRecord
    {
        func blank(station: StationRecord?, about person: String?, named: String?, content: String, at: EpochMillis? = nil)
            -> ReportRecord
        {
            ReportRecord(
                id: "", subject: subject, subjectID: id, reason: .other, note: "", reporterID: "", reporterName: "",
                stationID: station?.id, stationName: station?.name, reportedPersonID: person, reportedName: named,
                content: content, contentAt: at, createdAt: 0)
        }
        switch subject {
        case .chat:
            guard let stationID else { throw APIError.notFound("No message \(id) here: say which station it was in (stationID).") }
            let record = try await visibleStation(try Self.subjectID(stationID), to: caller)
            let room = try await chats.chatRoom(stationID: record.id, limit: ChatRoom.keptPerStation, now: clock.now())
            guard let message = room.recent.first(where: { $0.id == id }) else {
                throw APIError.notFound("No message \(id) in that station's chat (it may have been deleted).")
            }
            return blank(
                station: record, about: message.personID, named: message.handle.map { "@\($0)" } ?? message.name,
                content: message.text, at: message.sentAt)
        case .clip:
            guard let clip = try await clips.clip(id: id) else { throw APIError.notFound("No clip with id \(id).") }
            let record = try await visibleStation(clip.stationID, to: caller)
            let seconds = Double(clip.durationMs) / 1000
            let words = "A voice clip of \(String(format: "%.1f", seconds)) s" + (clip.note.isEmpty ? "" : ": “\(clip.note)”")
            return blank(station: record, about: clip.personID, named: clip.name, content: words, at: clip.createdAt)
        case .station:
            let record = try await visibleStation(id, to: caller)
            return blank(station: record, about: record.ownerID, named: record.owner, content: "The station “\(record.name)”")
        case .person:
            guard let person = try await people.person(id: id) else { throw APIError.notFound("No one with id \(id).") }
            let named = person.handle.map { "\(person.displayName) (@\($0))" } ?? "\(person.displayName) (a guest)"
            return blank(station: nil, about: person.id, named: person.handle.map { "@\($0)" } ?? person.displayName, content: named)
        }
    }

    /// A station the caller may listen to: what they can't see, they can't report.
    private func visibleStation(_ id: StationID, to caller: Caller) async throws -> StationRecord {
        guard let record = try await stations.station(id: id) else { throw APIError.notFound("No station with id \(id).") }
        _ = try await gate.requireListener(caller, on: record)
        return record
    }

    // MARK: The queues

    @Sendable func adminQueue(_ request: Request, context: AppRequestContext) async throws -> [ReportView] {
        _ = try AdminController.administrator(context)
        let found = try await reports.reports(try await filter(request, roomOf: nil), limit: try Self.limit(request))
        return found.map { Self.view($0, reporter: true, actions: ReportRules.actions(for: $0.subject)) }
    }

    @Sendable func stationQueue(_ request: Request, context: AppRequestContext) async throws -> [ReportView] {
        let hub = try await directory.hub(context)
        let record = await hub.record
        let role = try await gate.require(.moderateChat, context.caller, on: record)
        let found = try await reports.reports(try await filter(request, roomOf: record.id), limit: try Self.limit(request))
        return found.map { report in
            Self.view(
                report, reporter: false,
                actions: ReportRules.actions(for: report.subject).filter {
                    ReportRules.mayTake($0, on: report.subject, role: role, isAdministrator: context.caller.isAdministrator)
                })
        }
    }

    private func filter(_ request: Request, roomOf station: StationID?) async throws -> ReportFilter {
        let status: ReportStatus?
        switch try request.stringQuery("status", maxLength: 10) ?? "open" {
        case "all": status = nil
        case let raw:
            guard let known = ReportStatus(rawValue: raw) else {
                throw APIError.badRequest("status is open, dismissed, actioned or all.")
            }
            status = known
        }
        var filter = ReportFilter(status: status, roomOf: station)
        if let before = try request.stringQuery("before", maxLength: 40) {
            guard let earlier = try await reports.report(id: try Self.subjectID(before)) else {
                throw APIError.notFound("No report with id \(before): before names the last report of the page before.")
            }
            filter.before = (earlier.createdAt, earlier.id)
        }
        return filter
    }

    /// A reported clip's audio as it was: for the administrators, and the
    /// moderators of the station it was sent to.
    @Sendable func evidenceAudio(_ request: Request, context: AppRequestContext) async throws -> Response {
        let report = try await moderated(context)
        guard let name = report.report.evidence, let path = evidence.path(of: name) else {
            throw APIError.notFound("This report keeps no audio.")
        }
        return try await files.serve(path: path, contentType: "audio/mpeg", request: request, context: context, cacheControl: "private, no-store")
    }

    /// The report named by `{id}` when the caller moderates it (an
    /// administrator, or a moderator of its room), with their role there.
    private func moderated(_ context: AppRequestContext) async throws
        -> (report: ReportRecord, role: StationRole, moderator: PersonRecord)
    {
        guard let moderator = context.caller.person else {
            throw APIError(.unauthorized, code: .signInRequired, "Sign in to moderate.")
        }
        let id = try context.id("id")
        guard let report = try await reports.report(id: id) else { throw APIError.notFound("No report with id \(id).") }
        var role = StationRole.none
        if report.subject.reachesTheRoom, let stationID = report.stationID, let record = try await stations.station(id: stationID) {
            role = try await gate.verdict(context.caller, on: record).role
        }
        guard context.caller.isAdministrator || role >= .codj else {
            // The reported, and anyone else, learn nothing: not even that it exists.
            throw APIError.notFound("No report with id \(id).")
        }
        return (report, role, moderator)
    }

    // MARK: Acting

    @Sendable func close(_ request: Request, context: AppRequestContext) async throws -> ReportView {
        let (report, role, moderator) = try await moderated(context)
        let body = try await request.decode(as: ReportCloseRequest.self, context: context)
        let note = try Self.note(body.note)
        let isAdministrator = context.caller.isAdministrator
        guard report.status == .open else {
            throw APIError(.conflict, code: .conflict, "This report was closed already, by \(report.closedByName ?? "someone").")
        }
        guard ReportRules.mayTake(body.action, on: report.subject, role: role, isAdministrator: isAdministrator) else {
            throw APIError(.forbidden, code: .forbidden, Self.refusal(body.action, on: report.subject))
        }
        let why = note.isEmpty ? "Report: \(report.reason.rawValue)" : note
        try await act(body.action, on: report, by: moderator, role: isAdministrator ? .owner : role, why: why)
        let entry = AuditEntry(
            at: clock.now(), actorID: moderator.id, actorName: moderator.displayName, action: "report-\(body.action.rawValue)",
            subjectKind: "report", subjectID: report.id,
            subjectName: "\(report.subject.rawValue) about \(report.reportedName ?? "someone")", reason: why)
        let closing = ReportClosing(action: body.action, byName: moderator.displayName, note: note, at: clock.now())
        guard let closed = try await reports.closeReport(id: report.id, closing, audit: entry) else {
            throw APIError(.conflict, code: .conflict, "Another moderator closed this report first.")
        }
        let actions = ReportRules.actions(for: closed.subject)
        return Self.view(closed, reporter: isAdministrator, actions: actions)
    }

    /// Does what the moderator chose. `role`: theirs on the report's
    /// station (an administrator's counts as the owner's, short of
    /// removing the owner).
    private func act(_ action: ReportAction, on report: ReportRecord, by moderator: PersonRecord, role: StationRole, why: String)
        async throws
    {
        switch action {
        case .dismiss:
            return
        case .delete:
            switch report.subject {
            case .chat:
                guard let hub = try await reportHub(report) else { return }
                try await hubAction { try await hub.moderate(.delete(messageID: report.subjectID), by: moderator.id) }
            case .clip:
                guard let clip = try await clips.clip(id: report.subjectID) else { return }
                if let hub = try await directory.hub(id: clip.stationID), await hub.isScheduled(clipID: clip.id) {
                    throw APIError(
                        .conflict, code: .conflict, "That clip is on the timeline: take it off (or let it play) before deleting it.")
                }
                _ = try await clips.deleteClip(id: clip.id)
                clipFiles.remove(clip.id)
            case .station:
                let entry = AuditEntry(
                    at: clock.now(), actorID: moderator.id, actorName: moderator.displayName, action: "delete-station",
                    subjectKind: "station", subjectID: report.subjectID, subjectName: report.stationName ?? "", reason: why)
                _ = try await deletion.delete(report.subjectID, audit: entry)
            case .person:
                return
            }
        case .mute:
            guard let hub = try await reportHub(report), let person = report.reportedPersonID else { return }
            try await hubAction {
                try await hub.moderate(.mute(personID: person, minutes: ReportRules.muteMinutes), by: moderator.id)
            }
        case .ban:
            guard let hub = try await reportHub(report), let personID = report.reportedPersonID,
                let target = try await people.person(id: personID)
            else { return }
            let targetRole = try await gate.verdict(Caller(person: target, sessionID: nil, viaCookie: false), on: await hub.record).role
            guard StationPermissions.mayRemove(actor: role, target: targetRole) else {
                throw APIError(.forbidden, code: .forbidden, "You can't ban someone whose role is equal to or above yours.")
            }
            try await removal.remove(target, from: hub, ban: true)
        case .suspend:
            guard let personID = report.reportedPersonID, let target = try await people.person(id: personID) else {
                throw APIError.notFound("The reported person's account is gone already.")
            }
            guard target.id != moderator.id else {
                throw APIError(.conflict, code: .forbidden, "You can't suspend yourself; ask another administrator.")
            }
            let entry = AuditEntry(
                at: clock.now(), actorID: moderator.id, actorName: moderator.displayName, action: "suspend", subjectKind: "person",
                subjectID: target.id, subjectName: target.handle.map { "@\($0)" } ?? target.displayName, reason: why)
            _ = try await operators.suspend(personID: target.id, reason: why, audit: entry)
            await directory.personSuspended(target.id)
        }
    }

    /// The station a report about its room names, running here (nil when it was deleted since).
    private func reportHub(_ report: ReportRecord) async throws -> StationHub? {
        guard let stationID = report.stationID else { return nil }
        return try await directory.hub(id: stationID)
    }

    private func hubAction(_ body: () async throws -> Void) async throws {
        do { try await body() } catch let error as HubError { throw APIError(error) }
    }

    // MARK: Helpers

    static func view(_ report: ReportRecord, reporter: Bool, actions: [ReportAction]) -> ReportView {
        ReportView(
            id: report.id, subject: report.subject, subjectID: report.subjectID, reason: report.reason, note: report.note,
            stationID: report.stationID, stationName: report.stationName, reportedPersonID: report.reportedPersonID,
            reportedName: report.reportedName, content: report.content, contentAt: report.contentAt,
            hasEvidence: report.evidence != nil, createdAt: report.createdAt, status: report.status, closedAt: report.closedAt,
            closedByName: report.closedByName, action: report.action, closingNote: report.closingNote,
            reporterName: reporter ? report.reporterName : nil, actions: report.status == .open ? actions : [])
    }

    static func refusal(_ action: ReportAction, on subject: ReportSubject) -> String {
        guard ReportRules.actions(for: subject).contains(action) else {
            return "A report about a \(subject.rawValue) can't be closed with \(action.rawValue)."
        }
        switch action {
        case .suspend: return "Only the server's administrators suspend accounts."
        case .ban: return "Only the station's owner (or an administrator) bans."
        default: return "Only the station's owner, its co-DJs and the server's administrators act on this report."
        }
    }

    static func note(_ raw: String?) throws -> String {
        let note = (raw ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard note.unicodeScalars.count <= ReportLimits.noteLength else {
            throw APIError.badRequest("A note is at most \(ReportLimits.noteLength) characters.")
        }
        return note
    }

    /// A message's, clip's, station's, person's or report's id: short and printable.
    static func subjectID(_ raw: String) throws -> String {
        guard !raw.isEmpty, raw.utf8.count <= WireLimits.maxIDLength,
            raw.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") })
        else { throw APIError.badRequest("That is not an id.", code: .invalidId) }
        return raw
    }

    static func limit(_ request: Request) throws -> Int {
        try request.intQuery("limit", default: 50, range: 1...200)
    }
}
