import Hummingbird
import WavelengthCore
import WavelengthStore
import WavelengthWire

/// A person's blocks: whom they no longer see in chats and among clips.
/// Each listener's app hides what the people they block write and send
/// (a station's broadcast is made once for everyone), and the server
/// leaves them out of what it answers that person alone (the clips list).
struct BlocksController {
    let people: any PeopleRepository
    let blocks: any BlockRepository
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
        return Response(status: .noContent)
    }

    @Sendable func unblock(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try Self.someone(context)
        try await blocks.unblock(me.id, try Validation.personID(try context.id("person")))
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
