import Hummingbird
import WavelengthCore
import WavelengthStore
import WavelengthWire

/// Who may be on a station, and the owner's controls: settings, the
/// frequency and access code, joining and leaving, co-DJs, kick, ban,
/// ending the session, and claiming a pre-accounts station.
struct StationAdminController {
    let directory: StationDirectory
    let access: any StationAccessRepository
    let people: any PeopleRepository
    let gate: StationGate
    let attempts: AttemptGuard
    let clock: any ServerClock
    /// The station's shows: a revoked co-DJ hosts none of them any more.
    var schedule: (any ScheduleRepository)? = nil
    /// Live sources: a banned or revoked person's is cut.
    var sources: LiveSources? = nil

    func addRoutes(to router: Router<AppRequestContext>) {
        router.patch("/api/stations/{id}", use: updateSettings)
        router.get("/api/stations/{id}/code", use: code)
        router.post("/api/stations/{id}/code", use: rotateCode)
        router.post("/api/frequencies/{code}/join", use: joinByCode)
        router.delete("/api/stations/{id}/membership", use: leave)
        router.get("/api/stations/{id}/members", use: members)
        router.post("/api/stations/{id}/codjs", use: grantCoDJByHandle)
        router.put("/api/stations/{id}/codjs/{person}", use: grantCoDJ)
        router.delete("/api/stations/{id}/codjs/{person}", use: revokeCoDJ)
        router.post("/api/stations/{id}/kick", use: kick)
        router.post("/api/stations/{id}/ban", use: ban)
        router.delete("/api/stations/{id}/bans/{person}", use: unban)
        router.post("/api/stations/{id}/end", use: end)
        router.post("/api/stations/{id}/claim", use: claim)
    }

    // MARK: Settings and code

    @Sendable func updateSettings(_ request: Request, context: AppRequestContext) async throws -> StationView {
        let hub = try await directory.hub(context)
        let record = await hub.record
        _ = try await gate.require(.editSettings, context.caller, on: record)
        let patch = try await request.decode(as: StationSettingsPatch.self, context: context)
        let name = try patch.name.map(Validation.stationName) ?? record.name
        var maxListeners = record.maxListeners
        if let limit = patch.maxListeners {
            if let value = limit, !(1...10_000).contains(value) {
                throw APIError.badRequest("A listener limit is 1 to 10000, or null for none.", code: .invalidLimit)
            }
            maxListeners = limit
        }
        let visibility = patch.visibility ?? record.visibility
        guard
            var updated = try await access.updateStation(
                id: record.id, name: name, visibility: visibility, maxListeners: maxListeners)
        else { throw APIError.notFound("No station with id \(record.id).") }
        if visibility == .code, updated.liveFrequency(at: clock.now()) == nil {
            // Going code-protected with no frequency to keep: a frequency
            // and an access code, both at once. The hub learns the new
            // visibility first: rotateCode reads it to decide on a code.
            await hub.applySettings(of: updated)
            updated = try await directory.rotateCode(hub, expiresAt: updated.codeExpiresAt)
        } else if visibility == .code, updated.accessCode == nil {
            // Going code-protected on the air: an access code at once, and
            // the frequency people already tuned to stays.
            guard let coded = try await access.setAccessCode(stationID: record.id, accessCode: StationDirectory.newAccessCode())
            else { throw APIError.notFound("No station with id \(record.id).") }
            await hub.applySettings(of: coded)
        } else {
            await hub.applySettings(of: updated)
        }
        if visibility != record.visibility { try await dropWhoMayNoLongerListen(hub) }
        return try await hub.view().seen(as: .owner)
    }

    /// A socket opened while the station was public kept getting updates
    /// after it went private. Each person connected now is checked against
    /// the new visibility; those who no longer qualify are told and closed.
    private func dropWhoMayNoLongerListen(_ hub: StationHub) async throws {
        let record = await hub.record
        let ids = Set(await hub.connectedSeats().compactMap(\.personID))
        let people = try await access.people(ids: Array(ids))
        var allowed: Set<String> = []
        for (id, person) in people {
            let caller = Caller(person: person, sessionID: nil, viaCookie: false)
            if try await gate.verdict(caller, on: record).decision == .allowed { allowed.insert(id) }
        }
        let anonymous = try await gate.verdict(.anonymous, on: record)
        await hub.accessChanged(allowed: allowed, anonymousMayStay: anonymous.decision == .allowed)
        await directory.accessChanged(record.id)
    }

    @Sendable func code(_ request: Request, context: AppRequestContext) async throws -> CodeView {
        let hub = try await directory.hub(context)
        let record = await hub.record
        _ = try await gate.require(.viewCode, context.caller, on: record)
        return CodeView(
            frequency: record.liveFrequency(at: clock.now()), accessCode: record.accessCode,
            expiresAt: record.codeExpiresAt)
    }

    @Sendable func rotateCode(_ request: Request, context: AppRequestContext) async throws -> CodeView {
        let hub = try await directory.hub(context)
        _ = try await gate.require(.rotateCode, context.caller, on: await hub.record)
        let body = try await request.decodeIfPresent(as: RotateCodeRequest.self, context: context) ?? .init()
        let lifetime = try Validation.minutes(body.expiresInMinutes, max: 10_080, field: "expiresInMinutes")
        let current = await hub.record
        if current.visibility != .code, let frequency = current.liveFrequency(at: clock.now()) {
            // A public (or unlisted) station has no access code to change;
            // its frequency is how people find it, so it stays.
            return CodeView(frequency: frequency, accessCode: nil, expiresAt: current.codeExpiresAt)
        }
        let record = try await directory.rotateCode(hub, expiresAt: lifetime.map { clock.now() + $0 })
        return CodeView(frequency: record.frequency, accessCode: record.accessCode, expiresAt: record.codeExpiresAt)
    }

    // MARK: Joining and leaving

    /// Joins a station by frequency, with its access code when it is
    /// code-protected. Every miss counts against the address, and a wrong
    /// access code against the station from that address and from
    /// everyone (`AttemptGuard`): guessing is slow on purpose, and a
    /// fumbled code behind a party's NAT makes no one else wait.
    @Sendable func joinByCode(_ request: Request, context: AppRequestContext) async throws -> JoinResponse {
        guard let person = context.caller.person else {
            throw APIError(.unauthorized, code: .signInRequired, "Give a display name (or sign in) to join.")
        }
        let address = context.remoteAddress
        let frequency = try context.id("code")
        let body = try await request.decodeIfPresent(as: JoinRequest.self, context: context) ?? .init()
        let wrong = APIError(.notFound, code: .wrongCode, "Nothing is broadcasting on \(frequency) with that code.")
        let isWrong: @Sendable (any Error) -> Bool = { ($0 as? APIError)?.code == .wrongCode }
        let (directory, gate, access, clock, attempts) = (self.directory, self.gate, self.access, self.clock, self.attempts)
        let caller = context.caller
        return try await attempts.attempt(.join(address: address), isFailure: isWrong) {
            guard FrequencyDial.isWellFormed(frequency), let hub = try await directory.hub(frequency: frequency) else {
                throw wrong
            }
            let record = await hub.record
            let verdict = try await gate.verdict(caller, on: record)
            if verdict.decision == .banned { try StationGate.check(.banned) }
            switch record.visibility {
            case .public, .unlisted:
                break
            case .code:
                if verdict.decision != .allowed {
                    try await attempts.attempt(
                        .station(record.id, address: address, person: person.id), isFailure: isWrong) {
                        guard let given = body.accessCode, let expected = record.accessCode,
                            AccessCode.isWellFormed(given), AccessCode.matches(given, expected)
                        else { throw wrong }
                        try await access.join(stationID: record.id, personID: person.id, at: clock.now())
                    }
                }
            case .followers, .invite:
                // These are joined by following or by invite, never by code; to
                // an outsider the frequency answers like a wrong guess.
                if verdict.decision != .allowed { throw wrong }
            }
            let role = try await gate.requireListener(caller, on: record)
            return JoinResponse(station: try await hub.view().seen(as: role))
        }
    }

    @Sendable func leave(_ request: Request, context: AppRequestContext) async throws -> Response {
        let hub = try await directory.hub(context)
        let record = await hub.record
        _ = try await gate.require(.leave, context.caller, on: record)
        guard let person = context.caller.person else { throw APIError(.unauthorized, code: .signInRequired, "Sign in first.") }
        let stored = try await access.access(stationID: record.id, personID: person.id, ownerID: record.ownerID)
        guard stored.memberRole != nil else {
            throw APIError(.conflict, code: .notAMember, "You haven't joined this station, so there is nothing to leave.")
        }
        try await access.leave(stationID: record.id, personID: person.id)
        await hub.remove(personID: person.id, name: person.displayName, reason: "left")
        return Response(status: .noContent)
    }

    // MARK: People on the station

    @Sendable func members(_ request: Request, context: AppRequestContext) async throws -> [MemberView] {
        let hub = try await directory.hub(context)
        _ = try await gate.require(.viewMembers, context.caller, on: await hub.record)
        return try await memberList(hub)
    }

    @Sendable func grantCoDJ(_ request: Request, context: AppRequestContext) async throws -> [MemberView] {
        try await setCoDJ(true, context: context)
    }

    @Sendable func revokeCoDJ(_ request: Request, context: AppRequestContext) async throws -> [MemberView] {
        try await setCoDJ(false, context: context)
    }

    /// The owner names a co-DJ by handle: anyone with an account, whether
    /// or not they have been on the station yet.
    @Sendable func grantCoDJByHandle(_ request: Request, context: AppRequestContext) async throws -> [MemberView] {
        let hub = try await directory.hub(context)
        _ = try await gate.require(.grantCoDJ, context.caller, on: await hub.record)
        let body = try await request.decode(as: CoDJRequest.self, context: context)
        // "@ana" and "ana" name the same person.
        let typed = body.handle.utf8.count <= 256 ? body.handle : ""
        let handle = try Validation.handle(typed.hasPrefix("@") ? String(typed.dropFirst()) : typed)
        guard let target = try await people.person(handle: handle), target.kind == .user else {
            throw APIError.notFound("No one has the handle @\(handle).")
        }
        return try await setCoDJ(true, target: target, hub: hub)
    }

    private func setCoDJ(_ grant: Bool, context: AppRequestContext) async throws -> [MemberView] {
        let hub = try await directory.hub(context)
        let record = await hub.record
        _ = try await gate.require(grant ? .grantCoDJ : .revokeCoDJ, context.caller, on: record)
        let target = try await person(try Validation.personID(try context.id("person")))
        return try await setCoDJ(grant, target: target, hub: hub)
    }

    private func setCoDJ(_ grant: Bool, target: PersonRecord, hub: StationHub) async throws -> [MemberView] {
        let record = await hub.record
        guard target.id != record.ownerID else {
            throw APIError.badRequest("The owner is more than a co-DJ already.", code: .isOwner)
        }
        if grant {
            try await access.setMemberRole(stationID: record.id, personID: target.id, role: .codj, at: clock.now())
        } else {
            // Revoking from a stranger used to make them a listening member.
            try await access.revokeCoDJ(stationID: record.id, personID: target.id)
            // A revocation wins over any show: they host none of them now.
            try await removeHost(target.id, on: hub)
        }
        // Their live role follows: a new co-DJ gets the booth at once.
        let now = try await gate.verdict(Caller(person: target, sessionID: nil, viaCookie: false), on: record).role
        await hub.setRole(of: target.id, to: now, stillHosting: grant)
        await sources?.revalidate(stationID: record.id)
        return try await memberList(hub)
    }

    @Sendable func kick(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await remove(request, context: context, operation: .kick)
    }

    @Sendable func ban(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await remove(request, context: context, operation: .ban)
    }

    /// Kick and ban: the person is cut off from every connection they hold
    /// at once, and everyone on the station is told.
    private func remove(_ request: Request, context: AppRequestContext, operation: StationOperation) async throws
        -> Response
    {
        let hub = try await directory.hub(context)
        let record = await hub.record
        let actor = try await gate.require(operation, context.caller, on: record)
        let body = try await request.decode(as: PersonIDRequest.self, context: context)
        let target = try await person(try Validation.personID(body.personID))
        let targetRole = try await gate.verdict(Caller(person: target, sessionID: nil, viaCookie: false), on: record).role
        guard StationPermissions.mayRemove(actor: actor, target: targetRole) else {
            throw APIError(.forbidden, code: .forbidden, "You can't remove someone whose role is equal to or above yours.")
        }
        try await StationRemoval(directory: directory, access: access, clock: clock, sources: sources)
            .remove(target, from: hub, ban: operation == .ban)
        return Response(status: .noContent)
    }

    /// Takes a person off the hosts of every show of the station.
    private func removeHost(_ personID: String, on hub: StationHub) async throws {
        guard let schedule else { return }
        for var show in try await schedule.shows(stationID: hub.id) where show.hostIDs.contains(personID) {
            show.hostIDs.removeAll { $0 == personID }
            try await schedule.saveShow(show) { _ in }
        }
        await hub.scheduleChanged()
    }

    @Sendable func unban(_ request: Request, context: AppRequestContext) async throws -> Response {
        let hub = try await directory.hub(context)
        _ = try await gate.require(.unban, context.caller, on: await hub.record)
        let target = try Validation.personID(try context.id("person"))
        try await access.unban(stationID: hub.id, personID: target)
        return Response(status: .noContent)
    }

    /// Ends the session: everyone is told and cut off, listener memberships
    /// go (co-DJs stay), and the code is released, so the old code and the
    /// old guests are done with.
    @Sendable func end(_ request: Request, context: AppRequestContext) async throws -> Response {
        let hub = try await directory.hub(context)
        let record = await hub.record
        _ = try await gate.require(.endSession, context.caller, on: record)
        try await access.dropListeners(stationID: record.id)
        if record.visibility == .code { try await access.releaseCode(stationID: record.id) }
        await hub.end()
        try await directory.reload(record.id)
        await directory.accessChanged(record.id)
        return Response(status: .noContent)
    }

    /// Claims a station from before accounts with its owner key.
    @Sendable func claim(_ request: Request, context: AppRequestContext) async throws -> StationView {
        guard let person = context.caller.person, person.kind == .user else {
            throw APIError(.unauthorized, code: .signInRequired, "Log in to claim a station.")
        }
        let hub = try await directory.hub(context)
        let body = try await request.decode(as: ClaimRequest.self, context: context)
        let access = self.access
        let record = try await attempts.attempt(
            .join(address: context.remoteAddress), isFailure: { ($0 as? APIError)?.code == .wrongKey }
        ) {
            guard body.key.utf8.count <= 256,
                let record = try await access.claim(
                    stationID: hub.id, keyHash: OwnerKey.hash(body.key), ownerID: person.id,
                    ownerName: person.displayName)
            else {
                throw APIError(.forbidden, code: .wrongKey, "That owner key doesn't fit this station (or it was claimed).")
            }
            return record
        }
        await hub.applySettings(of: record)
        return try await hub.view().seen(as: .owner)
    }

    // MARK: Helpers

    private func person(_ id: String) async throws -> PersonRecord {
        guard let person = try await access.people(ids: [id])[id] else { throw APIError.notFound("No one with id \(id).") }
        return person
    }

    /// Members, co-DJs and banned people, plus whoever is connected now.
    private func memberList(_ hub: StationHub) async throws -> [MemberView] {
        let record = await hub.record
        let rows = try await access.memberships(stationID: record.id)
        let seats = await hub.connectedSeats()
        let connected = Set(seats.compactMap(\.personID))
        var known = Set(rows.map(\.person.id))
        var views = rows.map { row in
            MemberView(
                person: PersonView(row.person, stationID: nil), role: row.role ?? .none,
                connected: connected.contains(row.person.id), banned: row.banned)
        }
        var others = Set(connected.subtracting(known))
        if let owner = record.ownerID { others.insert(owner) }
        others.subtract(known)
        for (id, person) in try await access.people(ids: Array(others)) {
            known.insert(id)
            let role: StationRole = id == record.ownerID ? .owner : seats.first { $0.personID == id }?.role ?? .listener
            views.append(
                MemberView(person: PersonView(person, stationID: nil), role: role, connected: connected.contains(id), banned: false))
        }
        return views.sorted { a, b in
            a.role != b.role ? a.role > b.role : a.person.displayName.lowercased() < b.person.displayName.lowercased()
        }
    }
}

extension Request {
    /// Decodes a JSON body when there is one; an empty body is nil.
    func decodeIfPresent<T: Decodable>(as type: T.Type, context: AppRequestContext) async throws -> T? {
        var request = self
        let buffer = try await request.collectBody(upTo: context.maxUploadSize)
        guard buffer.readableBytes > 0 else { return nil }
        return try await request.decode(as: type, context: context)
    }
}
