import Hummingbird
import WavelengthCore
import WavelengthStorage
import WavelengthWire

/// Stations, their timelines and history, and the DJ commands over HTTP.
struct StationsController {
    let directory: StationDirectory
    let stations: any StationRepository
    let catalog: LibraryCatalog

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/api/stations", use: list)
        router.post("/api/stations", use: create)
        router.get("/api/stations/{id}", use: get)
        router.get("/api/frequencies/{code}", use: byFrequency)
        router.get("/api/stations/{id}/timeline", use: timeline)
        router.get("/api/stations/{id}/history", use: history)
        router.post("/api/stations/{id}/commands", use: command)
        router.get("/api/stations/{id}/access", use: access)
        router.get("/api/stations/{id}/pool", use: pool)
        router.put("/api/stations/{id}/pool", use: setPool)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> [StationView] {
        try await directory.list()
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws
        -> JSONResponse<CreateStationResponse>
    {
        let body = try await request.decode(as: CreateStationRequest.self, context: context)
        let name = body.name.trimmingCharacters(in: .whitespacesAndNewlines)
        let owner = (body.owner ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, name.count <= WireLimits.maxNameLength else {
            throw APIError.badRequest("A station needs a name of 1 to \(WireLimits.maxNameLength) characters.", code: "invalid_name")
        }
        guard owner.count <= WireLimits.maxNameLength else {
            throw APIError.badRequest("The owner's name is longer than \(WireLimits.maxNameLength) characters.", code: "invalid_name")
        }
        let (hub, key) = try await directory.create(name: name, owner: owner.isEmpty ? "anonymous" : owner)
        return JSONResponse(status: .created, value: CreateStationResponse(station: try await hub.view(), ownerKey: key))
    }

    @Sendable func get(_ request: Request, context: AppRequestContext) async throws -> StationView {
        try await hub(context).view()
    }

    @Sendable func byFrequency(_ request: Request, context: AppRequestContext) async throws -> StationView {
        let code = try context.id("code")
        guard FrequencyDial.isWellFormed(code), let hub = try await directory.hub(frequency: code) else {
            throw APIError.notFound("Nothing is broadcasting on \(code).")
        }
        return try await hub.view()
    }

    @Sendable func timeline(_ request: Request, context: AppRequestContext) async throws -> TimelineWindow {
        let limit = try request.intQuery("history", default: 10, range: 0...StationState.recentHistoryLimit)
        let upNext = try request.intQuery(
            "upNext", default: WireLimits.liveUpNextLimit, range: 0...Timeline.maximumUpcoming)
        return try await hub(context).window(historyLimit: limit, upNextLimit: upNext)
    }

    /// "What was on at 9:14?": plays that started before `before`, newest first.
    @Sendable func history(_ request: Request, context: AppRequestContext) async throws -> [EntryView] {
        let hub = try await hub(context)
        let before = try request.int64Query("before") ?? Int64.max
        let limit = try request.intQuery("limit", default: 20, range: 1...200)
        let plays = try await stations.history(stationID: hub.id, before: before, limit: limit)
        let tracks = try await catalog.summaries(for: plays.map(\.trackID))
        return plays.map { EntryView(entry: $0, track: tracks[$0.trackID] ?? .unavailable($0.trackID, duration: $0.duration)) }
    }

    @Sendable func command(_ request: Request, context: AppRequestContext) async throws -> CommandAck {
        let hub = try await hub(context)
        let body = try await request.decode(as: CommandRequest.self, context: context)
        try CommandValidation.check(body)
        return try await hub.apply(body, caller: request.caller)
    }

    /// The caller's role on the station, from the owner key it presents.
    @Sendable func access(_ request: Request, context: AppRequestContext) async throws -> StationAccess {
        let hub = try await hub(context)
        return StationAccess(role: await hub.authorizesDJ(request.caller) ? .owner : .listener)
    }

    @Sendable func pool(_ request: Request, context: AppRequestContext) async throws -> StationPool {
        StationPool(trackIDs: try await hub(context).pool())
    }

    /// Chooses the tracks the robot DJ plays from; `[]` means the whole library.
    @Sendable func setPool(_ request: Request, context: AppRequestContext) async throws -> StationPool {
        let hub = try await hub(context)
        let body = try await request.decode(as: StationPool.self, context: context)
        guard body.trackIDs.count <= StationPool.maxTracks else {
            throw APIError.badRequest("A pool holds at most \(StationPool.maxTracks) tracks.", code: "too_many_tracks")
        }
        for id in body.trackIDs where id.isEmpty || id.utf8.count > WireLimits.maxIDLength {
            throw APIError.badRequest("A track id in the pool is empty or too long.", code: "invalid_id")
        }
        try await hub.setPool(body.trackIDs, caller: request.caller)
        return StationPool(trackIDs: try await hub.pool())
    }

    private func hub(_ context: AppRequestContext) async throws -> StationHub {
        let id = try context.id("id")
        guard let hub = try await directory.hub(id: id) else { throw APIError.notFound("No station with id \(id).") }
        return hub
    }
}

/// Limits on a command that the decoder alone does not enforce.
enum CommandValidation {
    static func check(_ request: CommandRequest) throws {
        guard !request.id.isEmpty, request.id.utf8.count <= WireLimits.maxCommandIDLength else {
            throw APIError.badRequest(
                "A command id must be 1 to \(WireLimits.maxCommandIDLength) bytes.", code: "invalid_command_id")
        }
        let ids: [String] =
            switch request.command {
            case .append(let id), .queueNext(let id), .remove(let id), .move(let id, _): [id]
            case .skip(let id): [id].compactMap { $0 }
            case .pause, .resume, .seek: []
            }
        for id in ids where id.isEmpty || id.utf8.count > WireLimits.maxIDLength {
            throw APIError.badRequest("An id in the command is empty or too long.", code: "invalid_id")
        }
    }
}
