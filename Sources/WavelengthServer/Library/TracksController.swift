import Foundation
import Hummingbird
import NIOCore
import WavelengthCore
import WavelengthLibrary
import WavelengthStore
import WavelengthWire

/// Track details, the audio itself (with Range requests), artwork and lyrics.
struct TracksController {
    let tracks: any TrackRepository
    let transcoder: Transcoder
    /// What listeners are hearing: only that may be transcoded.
    let onAir: OnAirTracks
    /// Only files whose real path lies inside the library are read.
    let roots: LibraryRoots
    /// A private upload on the air is heard by the listeners of the station
    /// playing it, and by nobody else.
    let stations: any StationRepository
    let gate: StationGate
    let files = FileResponder()

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/api/tracks/{id}", use: details)
        router.get("/api/tracks/{id}/audio", use: audio)
        router.head("/api/tracks/{id}/audio", use: audio)
        router.get("/api/tracks/{id}/artwork", use: artwork)
        router.get("/api/tracks/{id}/lyrics", use: lyrics)
        router.get("/api/tracks/{id}/lyrics.json", use: lyricsLines)
    }

    @Sendable func details(_ request: Request, context: AppRequestContext) async throws -> TrackDetails {
        TrackDetails(try await track(request, context))
    }

    /// Serves the file as it is when the browser can play it, else (or when
    /// `?format=` asks) a cached transcode, made only for a track a station
    /// with listeners is playing, has just played or plays next. Paths come
    /// from the index only, never from the request, and are read only inside
    /// the library roots.
    @Sendable func audio(_ request: Request, context: AppRequestContext) async throws -> Response {
        let track = try await track(request, context)
        let requested = try request.stringQuery("format", maxLength: 8)
        var path = try confined(track.path)
        var contentType = track.audioFormat?.contentType ?? "application/octet-stream"
        let target: Transcoder.Target?
        if let requested {
            guard let parsed = Transcoder.Target(rawValue: requested) else {
                throw APIError.badRequest("Unknown format \(requested); use mp3, m4a or opus.", code: .unknownFormat)
            }
            target = parsed.rawValue == track.metadata.format.rawValue ? nil : parsed
        } else {
            target = (track.audioFormat?.isBrowserPlayable ?? false) ? nil : .mp3
        }
        if let target {
            // ffmpeg runs only for what a station's listeners hear now or
            // next (`OnAirTracks`); a conversion already cached is served to anyone.
            guard onAir.contains(track.id) || transcoder.isCached(track, as: target) else {
                throw APIError(
                    .forbidden, code: .notOnAir,
                    "Only a station's listeners can have a track converted, while it plays: tune in first.")
            }
            // Shared fairly between clients: a person, else an address.
            let client = context.caller.personID ?? context.remoteAddress
            path = try await transcoder.file(for: track, as: target, client: client)
            contentType = target.contentType
        }
        return try await files.serve(path: path, contentType: contentType, request: request, context: context)
    }

    @Sendable func artwork(_ request: Request, context: AppRequestContext) async throws -> Response {
        let track = try await track(request, context)
        // Reading the file blocks: off the cooperative pool.
        if track.hasEmbeddedArt, let path = try? confined(track.path),
            let art = try? await TagReader.offPool({ try TagReader.embeddedArtwork(path: path) })
        {
            return Response(
                status: .ok,
                headers: [.contentType: art.mimeType, .cacheControl: "public, max-age=86400"],
                body: .init(byteBuffer: ByteBuffer(bytes: art.data)))
        }
        if let artworkPath = track.artworkPath {
            let type = artworkPath.lowercased().hasSuffix(".png") ? "image/png" : "image/jpeg"
            return try await files.serve(path: try confined(artworkPath), contentType: type, request: request, context: context)
        }
        throw APIError.notFound("Track \(track.id) has no artwork.")
    }

    @Sendable func lyrics(_ request: Request, context: AppRequestContext) async throws -> Response {
        let track = try await track(request, context)
        guard let path = track.lyricsPath else { throw APIError.notFound("Track \(track.id) has no lyrics.") }
        return try await files.serve(
            path: try confined(path), contentType: "text/plain; charset=utf-8", request: request, context: context)
    }

    /// The words as lines for the listener screen: the `.lrc` sidecar's
    /// (timed when it has times), else the file's lyrics tags.
    @Sendable func lyricsLines(_ request: Request, context: AppRequestContext) async throws -> LyricsView {
        let track = try await track(request, context)
        if let sidecar = track.lyricsPath {
            let path = try confined(sidecar)
            let text = try await TagReader.offPool { () -> String in
                guard let handle = FileHandle(forReadingAtPath: path) else { return "" }
                defer { try? handle.close() }
                let data = (try? handle.read(upToCount: Lyrics.maxBytes)) ?? nil
                return String(decoding: data ?? Data(), as: UTF8.self)
            }
            let lyrics = Lyrics(lrc: text)
            if !lyrics.lines.isEmpty { return LyricsView(trackID: track.id, lyrics: lyrics, source: "lrc") }
        }
        let path = try confined(track.path)
        if let tagged = try? await TagReader.offPool({ try TagReader.lyrics(path: path) }) {
            let lyrics = Lyrics(lrc: tagged)
            if !lyrics.lines.isEmpty { return LyricsView(trackID: track.id, lyrics: lyrics, source: "tags") }
        }
        throw APIError.notFound("Track \(track.id) has no lyrics.")
    }

    /// The real path of a file of the library, or 404 when it has gone or
    /// leads outside the library (the answer does not say which).
    private func confined(_ path: String) throws -> String {
        guard let real = roots.confine(path) else {
            throw APIError.notFound("The file for this item is missing from the library; rescan it.")
        }
        return real
    }

    /// An upload not shared is its uploader's and an administrator's; while
    /// a station plays it, also that of whoever may listen to that station,
    /// asked by naming it (`?station=`, as the station's timeline does).
    /// Anyone else is told there is no such track, whichever station plays
    /// it elsewhere.
    private func track(_ request: Request, _ context: AppRequestContext) async throws -> TrackRecord {
        let id = try context.id("id")
        // Checked on every request, as any parameter is: a station id or 400.
        let station = try request.stringQuery("station", maxLength: WireLimits.maxIDLength)
        if let station, station.isEmpty || !station.utf8.allSatisfy(Self.isIDByte) {
            throw APIError.badRequest("station must be a station's id.")
        }
        let missing = APIError.notFound("No track with id \(id).")
        guard let track = try await tracks.track(id: id) else { throw missing }
        if track.isVisible(to: context.caller.personID) || context.caller.isAdministrator { return track }
        guard let stationID = station,
            onAir.contains(track.id, on: stationID), let record = try await stations.station(id: stationID),
            (try? await gate.requireListener(context.caller, on: record)) != nil,
            track.uploaderID == record.ownerID
        else { throw missing }
        return track
    }

    /// What station ids are made of.
    private static func isIDByte(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 45 || byte == 95
    }
}
