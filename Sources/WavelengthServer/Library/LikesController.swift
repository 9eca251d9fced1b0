import Hummingbird
import WavelengthCore
import WavelengthStore
import WavelengthWire

/// Liked songs: anyone signed in (a user or a named guest) saves the song
/// that plays, or any track, and lists them; the web app can make them the
/// robot DJ's pool for their own station.
struct LikesController {
    let likes: any LikesRepository
    let catalog: LibraryCatalog
    let clock: any ServerClock

    /// The most liked songs one person keeps: a shared disk, bounded per account.
    static let maxLikes = 5_000

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/api/me/likes", use: list)
        router.put("/api/me/likes/{id}", use: like)
        router.delete("/api/me/likes/{id}", use: unlike)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> [TrackSummary] {
        let person = try signedIn(context)
        let limit = try request.intQuery("limit", default: 200, range: 1...Self.maxLikes)
        let ids = try await likes.likedTracks(personID: person, limit: limit)
        let tracks = try await catalog.summaries(for: ids, visibleTo: person)
        // A liked track that left the library, or an upload taken back by
        // its uploader, is skipped, not an error.
        return ids.compactMap { tracks[$0] }
    }

    @Sendable func like(_ request: Request, context: AppRequestContext) async throws -> TrackSummary {
        let person = try signedIn(context)
        let id = try context.id("id")
        // Another person's unshared upload is no track to them, whoever learned its id.
        guard let track = try await catalog.summaries(for: [id], visibleTo: person)[id] else {
            throw APIError(.notFound, code: .unknownTrack, "No track with id \(id) in the library.")
        }
        guard try await likes.like(personID: person, trackID: id, at: clock.now(), limit: Self.maxLikes) else {
            throw APIError(.conflict, code: .likeLimit, "You already keep \(Self.maxLikes) liked songs; unlike some first.")
        }
        return track
    }

    @Sendable func unlike(_ request: Request, context: AppRequestContext) async throws -> Response {
        let person = try signedIn(context)
        try await likes.unlike(personID: person, trackID: try context.id("id"))
        return Response(status: .noContent)
    }

    private func signedIn(_ context: AppRequestContext) throws -> String {
        guard let person = context.caller.personID else {
            throw APIError(.unauthorized, code: .signInRequired, "Sign in or join as a guest to keep liked songs.")
        }
        return person
    }
}
