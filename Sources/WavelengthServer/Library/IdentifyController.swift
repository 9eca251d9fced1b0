import Foundation
import Hummingbird
import NIOCore
import WavelengthCore
import WavelengthWire

/// `POST /api/identify`: "what's this song?" for a clip of audio (a
/// recording from a speaker in the room, a stretch of a live show), answered
/// from the library's Chromaprint fingerprints, with no outside service.
/// For a station's own timeline, history (`?at=`) answers without audio.
struct IdentifyController {
    let recognizer: SongRecognizer
    let catalog: LibraryCatalog

    /// 30 s of 128 kbps audio is 480 KB; a phone's recording is less.
    static let maxClipBytes = 2 << 20

    func addRoutes(to router: Router<AppRequestContext>) {
        router.post("/api/identify", use: identify)
    }

    @Sendable func identify(_ request: Request, context: AppRequestContext) async throws -> IdentifyResponse {
        guard context.caller.person != nil else {
            throw APIError(.unauthorized, code: .signInRequired, "Sign in, or join as a guest, to ask what a song is.")
        }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: Self.maxClipBytes)
        } catch is NIOTooManyBytesError {
            throw APIError(.contentTooLarge, code: .tooLarge, "A clip is at most \(Self.maxClipBytes >> 20) MB.")
        }
        guard body.readableBytes > 0 else { throw APIError.badRequest("Send the clip's audio as the request body.", code: .badAudio) }
        let client = context.caller.personID ?? context.remoteAddress
        guard let match = try await recognizer.recognize(Data(buffer: body), client: client) else {
            return IdentifyResponse(match: nil)
        }
        guard let track = try await catalog.summaries(for: [match.trackID])[match.trackID] else {
            return IdentifyResponse(match: nil)
        }
        return IdentifyResponse(
            match: IdentifiedTrack(track: track, offsetMs: match.offsetMillis, similarity: (match.similarity * 1000).rounded() / 1000))
    }
}
