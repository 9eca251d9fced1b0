import Hummingbird
import WavelengthCore
import WavelengthStore
import WavelengthWire

/// A person's blocks. A block stands both ways, as Mastodon's does: the
/// server passes neither person's chat to the other (history too), ends
/// their follows of each other and refuses new ones, and takes no requests,
/// votes or thumbs from either on the other's stations; the blocker's clips
/// list leaves the other out. Reports still reach moderators: a block
/// shields no one from moderation.
struct BlocksController {
    let people: any PeopleRepository
    let blocks: any BlockRepository
    let follows: any PeopleRepository
    let directory: StationDirectory
    let clock: any ServerClock

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/api/blocks", use: list)
        router.put("/api/blocks/{person}", use: block)
        router.delete("/api/blocks/{person}", use: unblock)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> [PersonView] {
        let me = try Self.someone(context)
        return try await blocks.blocked(by: me.id).map { PersonView($0, stationID: nil) }
    }

    @Sendable func block(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try Self.someone(context)
        let id = try Validation.personID(try context.id("person"))
        guard id != me.id else { throw APIError.badRequest("You can't block yourself.") }
        guard try await people.person(id: id) != nil else { throw APIError.notFound("No one with id \(id).") }
        do {
            try await blocks.block(me.id, id, at: clock.now(), limit: ReportLimits.blocksPerPerson)
        } catch StorageError.blockLimit(let limit) {
            throw APIError(.tooManyRequests, code: .blockLimit, "You block \(limit) people already: unblock someone first.")
        }
        try await follows.unfollow(me.id, id)
        try await follows.unfollow(id, me.id)
        await directory.blockChanged(between: me.id, and: id, stands: true)
        return Response(status: .noContent)
    }

    @Sendable func unblock(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try Self.someone(context)
        let id = try Validation.personID(try context.id("person"))
        try await blocks.unblock(me.id, id)
        // The other may block this person still.
        await directory.blockChanged(between: me.id, and: id, stands: try await blocks.blockStands(between: me.id, and: id))
        return Response(status: .noContent)
    }

    /// Anyone with a session, a guest too: a guest at a party blocks as well.
    static func someone(_ context: AppRequestContext) throws -> PersonRecord {
        guard let person = context.caller.person else {
            throw APIError(.unauthorized, code: .signInRequired, "Sign in, or join a station with a name, to block someone.")
        }
        return person
    }
}
