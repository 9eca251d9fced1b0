import Foundation
import Hummingbird
import WavelengthCore
import WavelengthQR
import WavelengthStore
import WavelengthWire

/// Invite links: a token that lets whoever holds it join a station, until
/// it is revoked or expires; and the link as a QR code.
struct InvitesController {
    static let maxLifetimeMinutes = 43_200  // 30 days

    let directory: StationDirectory
    let access: any StationAccessRepository
    let gate: StationGate
    let clock: any ServerClock
    /// `--public-url`, for links in QR codes.
    let publicURL: String?
    let trustedProxies: Set<String>

    func addRoutes(to router: Router<AppRequestContext>) {
        router.post("/api/stations/{id}/invites", use: create)
        router.get("/api/stations/{id}/invites", use: list)
        router.delete("/api/stations/{id}/invites/{invite}", use: revoke)
        router.get("/api/invites/{token}", use: lookup)
        router.post("/api/invites/{token}/join", use: join)
        router.get("/api/invites/{token}/qr.svg", use: qrSVG)
        router.get("/api/invites/{token}/qr.png", use: qrPNG)
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws
        -> JSONResponse<InviteCreated>
    {
        let hub = try await directory.hub(context)
        _ = try await gate.require(.createInvite, context.caller, on: await hub.record)
        let body = try await request.decodeIfPresent(as: CreateInviteRequest.self, context: context) ?? .init()
        let lifetime = try Validation.minutes(body.expiresInMinutes, max: Self.maxLifetimeMinutes, field: "expiresInMinutes")
        let token = Secrets.token(bytes: 24)
        let now = clock.now()
        let invite = InviteRecord(
            id: Secrets.id("inv"), stationID: hub.id, tokenHash: Secrets.hash(token),
            createdBy: context.caller.personID ?? "", createdAt: now, expiresAt: lifetime.map { now + $0 })
        try await access.insertInvite(invite)
        return JSONResponse(
            status: .created,
            value: InviteCreated(id: invite.id, token: token, url: "/#/i/\(token)", expiresAt: invite.expiresAt))
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> [InviteView] {
        let hub = try await directory.hub(context)
        _ = try await gate.require(.listInvites, context.caller, on: await hub.record)
        return try await access.invites(stationID: hub.id).map {
            InviteView(id: $0.id, createdAt: $0.createdAt, expiresAt: $0.expiresAt, revoked: $0.revokedAt != nil, uses: $0.uses)
        }
    }

    @Sendable func revoke(_ request: Request, context: AppRequestContext) async throws -> Response {
        let hub = try await directory.hub(context)
        _ = try await gate.require(.revokeInvite, context.caller, on: await hub.record)
        let id = try context.id("invite")
        guard try await access.revokeInvite(id: id, stationID: hub.id, at: clock.now()) else {
            throw APIError.notFound("No live invite with id \(id) on this station.")
        }
        return Response(status: .noContent)
    }

    @Sendable func lookup(_ request: Request, context: AppRequestContext) async throws -> InviteLookup {
        let (invite, hub) = try await usableInvite(context)
        let verdict = try await gate.verdict(context.caller, on: await hub.record)
        // The invite lets its holder see the station they are invited to.
        return InviteLookup(
            station: try await hub.view().seen(as: max(verdict.role, .listener)), expiresAt: invite.expiresAt)
    }

    @Sendable func join(_ request: Request, context: AppRequestContext) async throws -> JoinResponse {
        let (invite, hub) = try await usableInvite(context)
        guard let person = context.caller.person else {
            throw APIError(.unauthorized, code: .signInRequired, "Give a display name (or sign in) to join.")
        }
        let record = await hub.record
        let verdict = try await gate.verdict(context.caller, on: record)
        if verdict.decision == .banned { try StationGate.check(.banned) }
        if verdict.decision != .allowed {
            try await access.join(stationID: record.id, personID: person.id, at: clock.now())
            try await access.countInviteUse(id: invite.id)
        }
        let role = try await gate.requireListener(context.caller, on: record)
        return JoinResponse(station: try await hub.view().seen(as: role))
    }

    @Sendable func qrSVG(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (_, hub) = try await usableInvite(context)
        let code = try qrCode(for: request, context: context)
        let name = await hub.record.name
        return image(Data(code.svg(moduleSize: 8, title: "Invite to \(name)").utf8), type: "image/svg+xml")
    }

    @Sendable func qrPNG(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try await usableInvite(context)
        let scale = try request.intQuery("scale", default: 8, range: 1...32)
        let png = try qrCode(for: request, context: context).png(scale: scale)
        return image(Data(png), type: "image/png")
    }

    // MARK: Helpers

    /// The invite named by `{token}` when it can still be used. A token is
    /// 24 random bytes, beyond guessing, so invites stay out of the code
    /// limiter: a party's fumbled codes never block its invite links.
    private func usableInvite(_ context: AppRequestContext) async throws -> (InviteRecord, StationHub) {
        let token = context.parameters.get("token") ?? ""
        guard token.utf8.count <= 64, token.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }),
            let invite = try await access.invite(tokenHash: Secrets.hash(token)), invite.isUsable(at: clock.now()),
            let hub = try await directory.hub(id: invite.stationID)
        else {
            throw APIError(.notFound, code: .invalidInvite, "This invite link is not valid: it may have expired or been revoked.")
        }
        return (invite, hub)
    }

    /// The absolute invite link, from the Host the browser used.
    ///
    /// With `--public-url` the link always starts with it, whatever Host the
    /// request named. Without, it follows the Host, and `X-Forwarded-Proto`
    /// only from a trusted proxy: from anyone else it's the client's word.
    private func qrCode(for request: Request, context: AppRequestContext) throws -> QRCode {
        let token = context.parameters.get("token") ?? ""
        if let publicURL { return try QRCode(text: "\(publicURL)/#/i/\(token)") }
        let host = request.head.authority ?? "localhost"
        guard host.utf8.count <= 255, !host.contains(where: { $0 == "/" || $0 == "#" || $0.isWhitespace }) else {
            throw APIError.badRequest("The Host header is not usable in a link.")
        }
        let forwardedHTTPS =
            trustedProxies.contains(context.peerAddress) && request.headers[.init("X-Forwarded-Proto")!] == "https"
        return try QRCode(text: "\(forwardedHTTPS ? "https" : "http")://\(host)/#/i/\(token)")
    }

    private func image(_ data: Data, type: String) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: type, .cacheControl: "private, no-store"],
            body: .init(byteBuffer: .init(bytes: data)))
    }
}
