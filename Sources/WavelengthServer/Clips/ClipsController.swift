import Foundation
import Hummingbird
import NIOCore
import WavelengthCore
import WavelengthStore
import WavelengthWire

/// Voice clips between songs (Stationhead's): the DJ records one in the
/// booth and it plays next; a guest's shout-out waits for the host's
/// approval. Every upload is checked with FFmpeg and brought to the
/// station's loudness; a station's clips share a quota.
struct ClipsController {
    let directory: StationDirectory
    let repository: any ClipRepository
    let store: ClipStore
    let gate: StationGate
    let clock: any ServerClock
    let quotaBytes: Int
    let files = FileResponder()

    /// Whom each person blocks: left out of their clips list.
    var blocks: (any BlockRepository)? = nil

    func addRoutes(to router: Router<AppRequestContext>) {
        router.post("/api/stations/{id}/clips", use: send)
        router.get("/api/stations/{id}/clips", use: list)
        router.post("/api/stations/{id}/clips/{clip}/approve", use: approve)
        router.delete("/api/stations/{id}/clips/{clip}", use: delete)
        router.get("/api/clips/{clip}/audio", use: audio)
        router.head("/api/clips/{clip}/audio", use: audio)
    }

    /// The clip's audio is the request body (any format FFmpeg reads: the
    /// browser's WebM/Opus, Ogg, MP3, M4A, WAV); `?note=` is a line for the
    /// listeners. The owner's and co-DJs' clips play next (201); a
    /// listener's waits for approval (202), when the host lets guests send.
    @Sendable func send(_ request: Request, context: AppRequestContext) async throws -> Response {
        let hub = try await directory.hub(context)
        let record = await hub.record
        let role = try await gate.require(.sendClip, context.caller, on: record)
        guard let person = context.caller.person else {
            throw APIError(.unauthorized, code: .signInRequired, "Sign in, or join as a guest, to send a clip.")
        }
        let staff = role >= .codj
        let settings = await hub.partySettings
        guard staff || settings.guestClips else {
            throw APIError(.conflict, code: .clipsClosed, "The host isn't taking voice clips from listeners.")
        }
        // Checked before any work: a DJ's clip plays next, so someone must listen.
        if staff, await hub.listenerCount == 0 {
            throw APIError(HubError.notOnAir)
        }
        let note = try Self.note(try request.stringQuery("note", maxLength: 512) ?? "")
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: ClipLimits.maxUploadBytes)
        } catch is NIOTooManyBytesError {
            throw APIError(.contentTooLarge, code: .tooLarge, "A voice clip upload is at most \(ClipLimits.maxUploadBytes >> 20) MB.")
        }
        guard body.readableBytes > 0 else {
            throw APIError.badRequest("Send the clip's audio as the request body.", code: .badAudio)
        }
        let prepared = try await store.prepare(
            Data(buffer: body), loudnessTarget: settings.loudnessTarget, client: person.id)
        var rng = SystemRandomNumberGenerator()
        let clip = VoiceClip(
            id: ClipIDs.make(using: &rng), stationID: record.id, personID: person.id, name: person.displayName, note: note,
            durationMs: prepared.durationMs, bytes: prepared.bytes, status: staff ? .approved : .pending,
            createdAt: clock.now())
        do {
            try await repository.insertClip(clip, quotaBytes: quotaBytes, pendingLimit: ClipLimits.pendingPerPerson)
            try store.keep(prepared, as: clip.id)
        } catch {
            store.discard(prepared)
            switch error {
            case StorageError.clipQuota: throw APIError(.conflict, code: .clipQuota, "\(StorageError.clipQuota(quotaBytes))")
            case StorageError.pendingClips(let limit):
                throw APIError(.tooManyRequests, code: .pendingClips, "\(StorageError.pendingClips(limit))")
            default: throw error
            }
        }
        if staff {
            do {
                try await hub.playClip(clip)
            } catch {
                // Nobody left to hear it: it isn't kept either.
                _ = try? await repository.deleteClip(id: clip.id)
                store.remove(clip.id)
                throw error
            }
        } else {
            await hub.clipWaiting(clip)
        }
        return try JSONResponse(status: staff ? .created : .accepted, value: ClipView(clip)).response(
            from: request, context: context)
    }

    /// The owner and co-DJs see every clip; anyone else their own.
    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> ClipList {
        let hub = try await directory.hub(context)
        let record = await hub.record
        let role = try await gate.requireListener(context.caller, on: record)
        guard let person = context.caller.personID else {
            throw APIError(.unauthorized, code: .signInRequired, "Sign in to see your clips.")
        }
        var clips = try await repository.clips(stationID: record.id, personID: role >= .codj ? nil : person, limit: 100)
        // The people the caller blocks send them nothing to hear.
        if let blocks, role >= .codj {
            let blocked = try await blocks.blockedIDs(by: person)
            clips.removeAll { blocked.contains($0.personID) }
        }
        return ClipList(
            clips: clips.map(ClipView.init), usedBytes: try await repository.clipBytes(stationID: record.id),
            quotaBytes: quotaBytes)
    }

    /// The host approves a waiting clip: it plays next.
    @Sendable func approve(_ request: Request, context: AppRequestContext) async throws -> ClipView {
        let hub = try await directory.hub(context)
        let record = await hub.record
        _ = try await gate.require(.approveClip, context.caller, on: record)
        let clip = try await stationClip(context, on: record.id)
        guard clip.status == .pending else {
            throw APIError(.conflict, code: .conflict, "That clip was approved already.")
        }
        // On the air first: when nobody listens, it stays waiting.
        var approved = clip
        approved.status = .approved
        try await hub.playClip(approved)
        _ = try await repository.approveClip(id: clip.id)
        return ClipView(approved)
    }

    /// The owner and co-DJs delete any clip; its author a waiting one. A
    /// clip still to play must come off the timeline first.
    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
        let hub = try await directory.hub(context)
        let record = await hub.record
        let role = try await gate.requireListener(context.caller, on: record)
        let clip = try await stationClip(context, on: record.id)
        let ownWaiting = clip.personID == context.caller.personID && clip.status == .pending
        guard StationPermissions.allows(role, .approveClip) || ownWaiting else {
            throw APIError(.forbidden, code: .forbidden, StationGate.refusal(.approveClip))
        }
        guard await !hub.isScheduled(clipID: clip.id) else {
            throw APIError(
                .conflict, code: .conflict, "That clip is on the timeline: take it off (or let it play) before deleting it.")
        }
        _ = try await repository.deleteClip(id: clip.id)
        store.remove(clip.id)
        return Response(status: .noContent)
    }

    /// An approved clip's audio, for anyone with its link (every player on
    /// the station fetches it); a waiting one only for the owner, co-DJs
    /// and its author.
    @Sendable func audio(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.id("clip")
        guard let clip = try await repository.clip(id: id) else { throw APIError.notFound("No clip with id \(id).") }
        if clip.status == .pending {
            guard let hub = try await directory.hub(id: clip.stationID) else { throw APIError.notFound("No clip with id \(id).") }
            let role = try? await gate.requireListener(context.caller, on: await hub.record)
            guard clip.personID == context.caller.personID || (role ?? .none) >= .codj else {
                throw APIError.notFound("No clip with id \(id).")
            }
        }
        return try await files.serve(
            path: store.path(for: clip.id), contentType: "audio/mpeg", request: request, context: context,
            cacheControl: clip.status == .pending ? "private, no-store" : "public, max-age=86400")
    }

    private func stationClip(_ context: AppRequestContext, on stationID: StationID) async throws -> VoiceClip {
        let id = try context.id("clip")
        guard let clip = try await repository.clip(id: id), clip.stationID == stationID else {
            throw APIError.notFound("No clip with id \(id) on this station.")
        }
        return clip
    }

    /// A clip's note: up to 120 characters of one line.
    static func note(_ raw: String) throws -> String {
        let note = raw.trimmingCharacters(in: .whitespaces)
        guard ClipLimits.noteLength.contains(note.count),
            !note.unicodeScalars.contains(where: {
                $0.properties.generalCategory == .control || (0x202A...0x202E).contains($0.value)
                    || (0x2066...0x2069).contains($0.value)
            })
        else {
            throw APIError.badRequest("A clip's note is at most 120 characters of one line.", code: .badRequest)
        }
        return note
    }
}
