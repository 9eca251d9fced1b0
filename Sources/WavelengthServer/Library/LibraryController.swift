import Hummingbird
import WavelengthStore
import WavelengthWire

/// Find-as-you-type search and browsing by artist, album and song: the
/// library, shared uploads and the caller's own.
struct LibraryController {
    let tracks: any TrackRepository
    let audioAnalysis: AudioAnalysis

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/api/library/search", use: search)
        router.get("/api/library/artists", use: artists)
        router.get("/api/library/albums", use: albums)
        router.get("/api/library/tracks", use: list)
        router.get("/api/library/analysis", use: analysis)
    }

    /// How far the background audio analysis has come.
    @Sendable func analysis(_ request: Request, context: AppRequestContext) async throws -> AnalysisProgress {
        try await audioAnalysis.progress()
    }

    @Sendable func search(_ request: Request, context: AppRequestContext) async throws -> SearchResponse {
        let query = try request.stringQuery("q") ?? ""
        let limit = try request.intQuery("limit", default: 25, range: 1...100)
        let found = try await tracks.search(query, limit: limit, viewer: context.caller.personID)
        return SearchResponse(query: query, tracks: found.map(TrackSummary.init))
    }

    @Sendable func artists(_ request: Request, context: AppRequestContext) async throws -> [ArtistSummary] {
        try await tracks.artists(viewer: context.caller.personID)
    }

    @Sendable func albums(_ request: Request, context: AppRequestContext) async throws -> [AlbumSummary] {
        let artist = try request.stringQuery("artist")
        return try await tracks.albums(artist: artist, viewer: context.caller.personID).map { album in
            var album = album
            album.artworkURL = album.artworkTrackID.map { "/api/tracks/\($0)/artwork" }
            return album
        }
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> [TrackSummary] {
        let artist = try request.stringQuery("artist")
        let album = try request.stringQuery("album")
        let limit = try request.intQuery("limit", default: 100, range: 1...500)
        let offset = try request.intQuery("offset", default: 0, range: 0...1_000_000)
        return try await tracks.tracks(
            artist: artist, album: album, limit: limit, offset: offset, viewer: context.caller.personID
        ).map(TrackSummary.init)
    }
}
