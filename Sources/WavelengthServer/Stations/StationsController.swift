import Hummingbird
import WavelengthCore
import WavelengthStore
import WavelengthWire

/// Stations, their timelines and history, and the DJ commands over HTTP.
struct StationsController {
    let directory: StationDirectory
    let stations: any StationRepository
    let catalog: LibraryCatalog
    let gate: StationGate

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/api/stations", use: list)
        router.post("/api/stations", use: create)
        router.get("/api/stations/{id}", use: get)
        router.get("/api/frequencies/{code}", use: byFrequency)
        router.get("/api/stations/{id}/timeline", use: timeline)
        router.post("/api/stations/{id}/commands", use: command)
        router.get("/api/stations/{id}/access", use: access)
        router.get("/api/stations/{id}/pool", use: pool)
        router.put("/api/stations/{id}/pool", use: setPool)
    }

    /// The public stations; each says whether it is yours.
    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> [StationView] {
        let me = context.caller.personID
        return try await directory.list().map { $0.seen(as: me != nil && $0.ownerID == me ? .owner : .listener) }
    }

    /// A further station (a party, a show) for a signed-in user.
    @Sendable func create(_ request: Request, context: AppRequestContext) async throws
        -> JSONResponse<CreateStationResponse>
    {
        guard let person = context.caller.person, person.kind == .user else {
            throw APIError(.unauthorized, code: .signInRequired, "Sign up or log in to start a station.")
        }
        let body = try await request.decode(as: CreateStationRequest.self, context: context)
        let name = try Validation.stationName(body.name)
        let hub = try await directory.create(name: name, owner: person, visibility: body.visibility ?? .public)
        let view = try await hub.view().seen(as: .owner)
        return JSONResponse(status: .created, value: CreateStationResponse(station: view))
    }

    @Sendable func get(_ request: Request, context: AppRequestContext) async throws -> StationView {
        let (hub, role) = try await listening(context)
        return try await hub.view().seen(as: role)
    }

    @Sendable func byFrequency(_ request: Request, context: AppRequestContext) async throws -> StationView {
        let code = try context.id("code")
        guard FrequencyDial.isWellFormed(code), let hub = try await directory.hub(frequency: code) else {
            throw APIError.notFound("Nothing is broadcasting on \(code).")
        }
        // A code-protected station is found by frequency only with its
        // access code (POST …/join); to everyone else the frequency is static.
        let verdict = try await gate.verdict(context.caller, on: await hub.record)
        guard verdict.decision == .allowed else { throw APIError.notFound("Nothing is broadcasting on \(code).") }
        return try await hub.view().seen(as: verdict.role)
    }

    @Sendable func timeline(_ request: Request, context: AppRequestContext) async throws -> TimelineWindow {
        let limit = try request.intQuery("history", default: 10, range: 0...StationState.recentHistoryLimit)
        let upNext = try request.intQuery(
            "upNext", default: WireLimits.liveUpNextLimit, range: 0...Timeline.maximumUpcoming)
        return try await listening(context).hub.window(historyLimit: limit, upNextLimit: upNext)
    }

    @Sendable func command(_ request: Request, context: AppRequestContext) async throws -> CommandAck {
        let hub = try await hub(context)
        let body = try await request.decode(as: CommandRequest.self, context: context)
        let role = try await gate.require(body.command.operation, context.caller, on: await hub.record)
        try CommandValidation.check(body)
        let caller = context.caller
        return try await hub.apply(
            body, from: .request(role, personID: caller.personID, name: caller.person?.displayName ?? "A listener"))
    }

    /// The caller's role on the station and whether they may listen.
    @Sendable func access(_ request: Request, context: AppRequestContext) async throws -> StationAccess {
        let hub = try await hub(context)
        let verdict = try await gate.verdict(context.caller, on: await hub.record)
        return StationAccess(
            role: verdict.role, canListen: verdict.decision == .allowed,
            reason: ErrorCode(verdict.decision)?.rawValue)
    }

    @Sendable func pool(_ request: Request, context: AppRequestContext) async throws -> StationPool {
        StationPool(trackIDs: try await listening(context).hub.pool())
    }

    /// Chooses the tracks the robot DJ plays from; `[]` means the whole library.
    @Sendable func setPool(_ request: Request, context: AppRequestContext) async throws -> StationPool {
        let hub = try await hub(context)
        _ = try await gate.require(.setPool, context.caller, on: await hub.record)
        let body = try await request.decode(as: StationPool.self, context: context)
        guard body.trackIDs.count <= StationPool.maxTracks else {
            throw APIError.badRequest("A pool holds at most \(StationPool.maxTracks) tracks.", code: .tooManyTracks)
        }
        for id in body.trackIDs where id.isEmpty || id.utf8.count > WireLimits.maxIDLength {
            throw APIError.badRequest("A track id in the pool is empty or too long.", code: .invalidId)
        }
        try await hub.setPool(body.trackIDs)
        return StationPool(trackIDs: try await hub.pool())
    }

    private func hub(_ context: AppRequestContext) async throws -> StationHub {
        try await directory.hub(context)
    }

    /// The station, when the caller may listen to it, with their role.
    private func listening(_ context: AppRequestContext) async throws -> (hub: StationHub, role: StationRole) {
        let hub = try await hub(context)
        return (hub, try await gate.requireListener(context.caller, on: await hub.record))
    }
}

/// Limits on a command that the decoder alone does not enforce.
enum CommandValidation {
    static func check(_ request: CommandRequest) throws {
        guard !request.id.isEmpty, request.id.utf8.count <= WireLimits.maxCommandIDLength else {
            throw APIError.badRequest(
                "A command id must be 1 to \(WireLimits.maxCommandIDLength) bytes.", code: .invalidCommandId)
        }
        let ids: [String] =
            switch request.command {
            case .append(let id), .queueNext(let id), .remove(let id), .move(let id, _), .request(let id), .liftVeto(let id): [id]
            case .vote(let id, _), .withdraw(let id), .moveRequest(let id, _), .vetoRequest(let id),
                .playRequestNow(let id), .voteSkip(let id), .thumb(let id, _):
                [id]
            case .ballotVote(let ballot, let track), .elect(let ballot, let track): [ballot, track]
            case .skip(let id): [id].compactMap { $0 }
            case .pause, .resume, .seek, .volumeVote, .setVolume: []
            }
        for id in ids where id.isEmpty || id.utf8.count > WireLimits.maxIDLength {
            throw APIError.badRequest("An id in the command is empty or too long.", code: .invalidId)
        }
    }
}
