import Hummingbird
import WavelengthCore
import WavelengthStore
import WavelengthWire

/// The server's administrators' API: find people, suspend and reinstate
/// them, and read the audit log. Every route answers 403 to anyone who
/// isn't an administrator (`wavelength admin grant`), and each action is
/// written with its audit entry in one transaction.
struct AdminController {
    let people: any PeopleRepository
    let operators: any OperatorRepository
    let access: any StationAccessRepository
    let stations: any StationRepository
    let directory: StationDirectory
    let deletion: StationDeletion
    let personDeletion: PersonDeletion
    let clock: any ServerClock
    /// The library's rescans (nil where the library isn't rescanned live).
    let rescans: LibraryRescanQueue?

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/api/admin/people", use: findPeople)
        router.get("/api/admin/people/{id}", use: personDetail)
        router.post("/api/admin/stations/{id}/off-air", use: takeOffTheAir)
        router.post("/api/admin/stations/{id}/delete", use: deleteStation)
        router.post("/api/admin/stations/{id}/hide", use: hide)
        router.post("/api/admin/stations/{id}/show", use: show)
        router.post("/api/admin/people/{id}/delete", use: deletePerson)
        router.post("/api/admin/people/{id}/suspend", use: suspend)
        router.post("/api/admin/people/{id}/unsuspend", use: unsuspend)
        router.get("/api/admin/audit", use: audit)
        router.get("/api/admin/library", use: libraryStatus)
        router.post("/api/admin/library/scan", use: scanNow)
    }

    @Sendable func libraryStatus(_ request: Request, context: AppRequestContext) async throws -> LibraryScanStatus {
        _ = try Self.administrator(context)
        return rescans?.current ?? LibraryScanStatus(scanning: false, available: false)
    }

    /// "Scan now": every library folder, in the next rescan (at once unless
    /// one is under way). Logged like every admin action.
    @Sendable func scanNow(_ request: Request, context: AppRequestContext) async throws -> LibraryScanStatus {
        let admin = try Self.administrator(context)
        guard let rescans else {
            throw APIError(
                .conflict, code: .notAvailable,
                "This server doesn't rescan its library while it runs (several nodes share it): run `wavelength scan` on the host.")
        }
        let entry = AuditEntry(
            at: clock.now(), actorID: admin.id, actorName: admin.displayName, action: "scan-library", subjectKind: "library",
            subjectID: "library", subjectName: "the library", reason: "Scan now")
        try await operators.record(entry)
        rescans.scanEverything()
        return rescans.current
    }

    @Sendable func findPeople(_ request: Request, context: AppRequestContext) async throws -> [AdminPersonView] {
        _ = try Self.administrator(context)
        let query = (try request.stringQuery("q", maxLength: 40) ?? "").trimmingCharacters(in: .whitespaces)
        guard !query.isEmpty else { return [] }
        var views: [AdminPersonView] = []
        // Anyone: users by handle or name, guests by name, anyone by id.
        for person in try await people.searchPeople(prefix: query, limit: 20, guests: true) {
            views.append(try await view(of: person))
        }
        return views
    }

    @Sendable func personDetail(_ request: Request, context: AppRequestContext) async throws -> AdminPersonDetail {
        _ = try Self.administrator(context)
        let person = try await subject(context)
        let records = try await access.stations(ownedBy: [person.id])
        let stations = try await directory.views(of: records)
        let hidden = try await operators.hiddenFromDial(records.map(\.id))
        let sessions = try await operators.activeSessions(personID: person.id, at: clock.now()).map {
            AdminPersonDetail.Session(kind: $0.kind.rawValue, createdAt: $0.createdAt, expiresAt: $0.expiresAt)
        }
        var detail = AdminPersonDetail(standing: try await view(of: person), stations: stations, sessions: sessions)
        detail.hiddenStations = records.map(\.id).filter(hidden.contains)
        return detail
    }

    /// Ends a station's session, as its owner's "End" does: everyone tuned
    /// in is let go, a code-protected station's frequency and members go.
    /// It may play again when someone tunes in (suspend its owner to stop that).
    @Sendable func takeOffTheAir(_ request: Request, context: AppRequestContext) async throws -> Response {
        let admin = try Self.administrator(context)
        let reason = try await Self.reason(request, context: context)
        let hub = try await directory.hub(context)
        let record = await hub.record
        try await access.dropListeners(stationID: record.id)
        if record.visibility == .code { try await access.releaseCode(stationID: record.id) }
        await hub.end()
        try await directory.reload(record.id)
        await directory.accessChanged(record.id)
        // Logged once done (ending a session is several steps, not one transaction).
        try await operators.record(
            AuditEntry(
                at: clock.now(), actorID: admin.id, actorName: admin.displayName, action: "take-off-air", subjectKind: "station",
                subjectID: record.id, subjectName: record.name, reason: reason))
        return Response(status: .noContent)
    }

    /// Deletes a station for good: everyone tuned in is told and let go,
    /// then its rows go in one transaction with the audit entry, then its
    /// voice clips' files. A personal station's owner gets a fresh, empty
    /// one at their next sign-in (every user has one).
    @Sendable func deleteStation(_ request: Request, context: AppRequestContext) async throws -> Response {
        let admin = try Self.administrator(context)
        let reason = try await Self.reason(request, context: context)
        let hub = try await directory.hub(context)
        let record = await hub.record
        let entry = AuditEntry(
            at: clock.now(), actorID: admin.id, actorName: admin.displayName, action: "delete-station", subjectKind: "station",
            subjectID: record.id, subjectName: record.name, reason: reason)
        guard try await deletion.delete(record.id, audit: entry) else {
            throw APIError.notFound("No station with id \(record.id).")
        }
        return Response(status: .noContent)
    }

    /// Hides a station from the dial and every listing, or shows it again;
    /// it still plays for anyone with its link.
    @Sendable func hide(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await setHidden(true, request, context)
    }

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await setHidden(false, request, context)
    }

    private func setHidden(_ hidden: Bool, _ request: Request, _ context: AppRequestContext) async throws -> Response {
        let admin = try Self.administrator(context)
        let reason = try await Self.reason(request, context: context)
        let id = try context.id("id")
        guard let record = try await stations.station(id: id) else { throw APIError.notFound("No station with id \(id).") }
        let entry = AuditEntry(
            at: clock.now(), actorID: admin.id, actorName: admin.displayName, action: hidden ? "hide-station" : "show-station",
            subjectKind: "station", subjectID: record.id, subjectName: record.name, reason: reason)
        guard try await operators.setHiddenFromDial(stationID: record.id, hidden, audit: entry) else {
            throw APIError.notFound("No station with id \(id).")
        }
        return Response(status: .noContent)
    }

    /// Deletes a person for good (`PersonDeletion`); not oneself (that is
    /// the account page's "Delete my account").
    @Sendable func deletePerson(_ request: Request, context: AppRequestContext) async throws -> Response {
        let admin = try Self.administrator(context)
        let person = try await subject(context)
        guard person.id != admin.id else {
            throw APIError(.conflict, code: .forbidden, "You can't delete yourself here: use your account page.")
        }
        let reason = try await Self.reason(request, context: context)
        guard try await personDeletion.delete(person, audit: entry("delete-person", by: admin, on: person, reason: reason)) else {
            throw APIError.notFound("No person with id \(person.id).")
        }
        return Response(status: .noContent)
    }

    @Sendable func suspend(_ request: Request, context: AppRequestContext) async throws -> AdminPersonView {
        let admin = try Self.administrator(context)
        let person = try await subject(context)
        guard person.id != admin.id else {
            throw APIError(.conflict, code: .forbidden, "You can't suspend yourself; ask another administrator.")
        }
        let reason = try await Self.reason(request, context: context)
        let entry = entry("suspend", by: admin, on: person, reason: reason)
        guard try await operators.suspend(personID: person.id, reason: reason, audit: entry) else {
            throw APIError.notFound("No person with id \(person.id).")
        }
        await directory.personSuspended(person.id)
        return try await view(of: person)
    }

    @Sendable func unsuspend(_ request: Request, context: AppRequestContext) async throws -> AdminPersonView {
        let admin = try Self.administrator(context)
        let person = try await subject(context)
        let reason = try await Self.reason(request, context: context)
        guard try await operators.unsuspend(personID: person.id, audit: entry("unsuspend", by: admin, on: person, reason: reason)) else {
            throw APIError.notFound("No person with id \(person.id).")
        }
        return try await view(of: person)
    }

    @Sendable func audit(_ request: Request, context: AppRequestContext) async throws -> [AuditEntryView] {
        _ = try Self.administrator(context)
        let limit = try request.intQuery("limit", default: 50, range: AdminLimits.pageSize)
        let before = try request.stringQuery("before", maxLength: 20).map { text -> Int64 in
            guard let id = Int64(text), id > 0 else { throw APIError.badRequest("before must be an entry's id.") }
            return id
        }
        return try await operators.auditLog(before: before, limit: limit).compactMap { entry in
            entry.id.map {
                // Kept as typed; shown and exported inert (`InertText`).
                AuditEntryView(
                    id: $0, at: entry.at, actorID: entry.actorID, actorName: InertText.shown(entry.actorName),
                    action: entry.action, subjectKind: entry.subjectKind, subjectID: entry.subjectID,
                    subjectName: InertText.shown(entry.subjectName), reason: InertText.shown(entry.reason))
            }
        }
    }

    // MARK: Helpers

    /// The caller, when an administrator; else 401 or 403.
    static func administrator(_ context: AppRequestContext) throws -> PersonRecord {
        guard let person = context.caller.person else {
            throw APIError(.unauthorized, code: .signInRequired, "Sign in as an administrator.")
        }
        guard context.caller.isAdministrator else {
            throw APIError(.forbidden, code: .forbidden, "Only the server's administrators can do that.")
        }
        return person
    }

    private func subject(_ context: AppRequestContext) async throws -> PersonRecord {
        let id = try context.id("id")
        guard let person = try await people.person(id: id) else { throw APIError.notFound("No person with id \(id).") }
        return person
    }

    private static func reason(_ request: Request, context: AppRequestContext) async throws -> String {
        let body = try await request.decode(as: AdminActionRequest.self, context: context)
        let reason = body.reason.trimmingCharacters(in: .whitespacesAndNewlines)
        guard AdminLimits.reasonBytes.contains(reason.utf8.count) else {
            throw APIError.badRequest("Say why in 1 to \(AdminLimits.reasonBytes.upperBound) bytes: it goes in the audit log.")
        }
        return reason
    }

    private func entry(_ action: String, by admin: PersonRecord, on person: PersonRecord, reason: String) -> AuditEntry {
        AuditEntry(
            at: clock.now(), actorID: admin.id, actorName: admin.displayName, action: action, subjectKind: "person",
            subjectID: person.id, subjectName: person.handle.map { "@\($0)" } ?? person.displayName, reason: reason)
    }

    private func view(of person: PersonRecord) async throws -> AdminPersonView {
        let standing = try await operators.standing(personID: person.id) ?? PersonStanding()
        return AdminPersonView(
            person: PersonView(person, stationID: nil), isAdministrator: standing.isAdministrator,
            suspendedAt: standing.suspendedAt, suspensionReason: standing.suspensionReason)
    }
}
