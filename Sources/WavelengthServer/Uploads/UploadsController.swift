import Foundation
import Hummingbird
import Logging
import Synchronization
import WavelengthCore
import WavelengthLibrary
import WavelengthStore
import WavelengthWire

/// Music people bring through the web app. An upload is the uploader's:
/// in their search and their stations' robot pool, and the whole server's
/// once they share it. It is read like the library's files (tags, length,
/// art, lyrics, then loudness, tempo and a fingerprint from one decode),
/// and a file whose audio is already on the server is not stored again.
struct UploadsController {
    let uploads: any UploadRepository
    let tracks: any TrackRepository
    let people: any PeopleRepository
    let files: UploadFiles
    let recognizer: SongRecognizer
    let catalog: LibraryCatalog
    let directory: StationDirectory
    let clock: any ServerClock
    let allowance: UploadAllowance
    let maxFileBytes: Int64
    var idleTimeout: Duration = .seconds(30)
    let logger: Logger
    /// Uploads in flight, each person's and each client address's: the body
    /// is read before a decode slot is taken, so these are what a slow
    /// sender holds, and only its own.
    let inFlightPerPerson = AddressSlots(perAddress: Self.inFlightPerPerson)
    let inFlightPerAddress = AddressSlots(perAddress: Self.inFlightPerAddress)
    static let inFlightPerPerson = 2
    static let inFlightPerAddress = 4
    /// Reading an upload decodes it: two at a time on the server, one per person.
    let slots = FairSlots(
        slots: Self.lanes.count, maxWaitingPerClient: 1, maxWaiting: 16,
        busy: "The server is busy reading other uploads; try again in a few seconds.", retryAfterSeconds: 5)
    /// A thread of its own for each slot's decode, apart from the background
    /// analysis and "what's this song?".
    static let lanes = (0..<2).map { AnalysisLane(label: "wavelength.uploads.\($0)") }
    private static let turn = Atomic<Int>(0)

    /// A recording this close to one on the server, from the start and as
    /// long within `sameLengthMillis`, is that recording (re-encoded, or
    /// with other tags).
    static let sameRecording = 0.9
    static let sameLengthMillis: Int64 = 2_000

    func addRoutes(to router: Router<AppRequestContext>) {
        router.post("/api/uploads", use: upload)
        router.get("/api/uploads", use: list)
        router.post("/api/uploads/{id}/share", use: share)
        router.post("/api/uploads/{id}/unshare", use: unshare)
        router.delete("/api/uploads/{id}", use: delete)
        router.get("/api/admin/uploads", use: everyone)
        router.post("/api/admin/people/{id}/upload-quota", use: setQuota)
    }

    /// The body is the file; `?name=` its name on the uploader's device.
    @Sendable func upload(_ request: Request, context: AppRequestContext) async throws -> Response {
        let person = try Self.uploader(context)
        let name: String
        switch UploadName.validated(try request.stringQuery("name", maxLength: 1_024) ?? "") {
        case .success(let valid): name = valid
        case .failure(let problem): throw APIError.badRequest(problem.description, code: .badFileName)
        }
        let usage = try await uploads.uploadUsage(personID: person.id, allowance: allowance)
        let room = min(maxFileBytes, usage.quota - usage.used)
        let declared = request.headers[.contentLength].flatMap { Int64($0) }
        if let declared, declared > maxFileBytes { throw tooLarge() }
        if room <= 0 || (declared ?? 0) > room { throw quotaRefusal(.quota(usage.quota)) }
        guard let mine = inFlightPerPerson.reserve(address: person.id),
            let here = inFlightPerAddress.reserve(address: context.remoteAddress)
        else {
            throw APIError(
                .tooManyRequests, code: .busy,
                "At most \(Self.inFlightPerPerson) files of yours are sent at once; the next can start when one is done.")
        }
        // Held until the upload is done, on every path.
        defer { withExtendedLifetime((mine, here)) {} }
        let receipt = try await receive(
            request, name: name, declared: declared, room: room, quota: usage.quota, person: person, context: context)
        return try JSONResponse(status: receipt.upload == nil ? .ok : .created, value: receipt)
            .response(from: request, context: context)
    }

    private func receive(
        _ request: Request, name: String, declared: Int64?, room: Int64, quota: Int64, person: PersonRecord,
        context: AppRequestContext
    ) async throws -> UploadReceipt {
        let part = files.newPart()
        logger.info("Upload started: \(name) by \(person.id)")
        do {
            let size: Int64
            do {
                // Read whole before a decode slot is taken: a slow sender
                // holds its own in-flight slot, never one of the server's.
                size = try await files.write(request.body, to: part, limit: room, idle: idleTimeout, context: context)
            } catch is UploadTooLarge {
                throw room < maxFileBytes ? quotaRefusal(.quota(quota)) : tooLarge()
            } catch let stalled as UploadStalled {
                throw APIError(
                    .requestTimeout, code: .badRequest,
                    "Nothing of the file arrived for \(stalled.idle.components.seconds) s; the upload stopped. Send it again.")
            }
            guard size > 0 else { throw APIError.badRequest("The file is empty.", code: .badAudio) }
            if let declared, size != declared {
                throw APIError.badRequest("The upload broke off after \(size) of \(declared) bytes: send it again.", code: .badAudio)
            }
            return try await slots.run(for: person.id) {
                try await read(part, size: size, name: name, person: person)
            }
        } catch {
            files.discard(part)
            logger.info("Upload refused: \(name) by \(person.id): \(error)")
            throw error
        }
    }

    /// The file read whole, in a decode slot: its tags, its audio, and
    /// stored unless the server has it already.
    private func read(_ part: String, size: Int64, name: String, person: PersonRecord) async throws -> UploadReceipt {
        let scanned: ScannedFile
        do {
            scanned = try await TagReader.offPool { try UploadedFileReader.read(path: part, name: name) }
        } catch {
            throw APIError.badRequest("\(name) is not audio the server can read (\(error)).", code: .badAudio)
        }
        if let same = try await uploads.upload(
            contentFingerprint: scanned.fingerprint, size: scanned.stamp.size, visibleTo: person.id)
        {
            files.discard(part)
            return UploadReceipt(duplicate: TrackSummary(same))
        }
        let lane = Self.lanes[Self.turn.wrappingAdd(1, ordering: .relaxed).oldValue % Self.lanes.count]
        let analysis = try await TrackAnalyzer.measure(path: part, on: lane)
        let features = AudioFeatures(
            loudness: try? analysis.loudness?.get(), rhythm: try? analysis.rhythm?.get(),
            fingerprint: try? analysis.fingerprint?.get())
        if let same = try await sameRecording(features.fingerprint, length: scanned.metadata.durationMs, for: person.id) {
            files.discard(part)
            return UploadReceipt(duplicate: TrackSummary(same))
        }
        let trackID = TrackRecord.newID()
        var file = scanned
        file.path = try await files.keep(part, trackID: trackID, extension: UploadName.storedExtension(of: name))
        let now = clock.now()
        var record = TrackRecord(id: trackID, file: file, addedAt: now)
        record.uploaderID = person.id
        record.uploadName = name
        record.loudness = features.loudness?.integrated
        record.loudnessRange = features.loudness?.range
        record.truePeak = features.loudness?.truePeak
        record.tempo = features.rhythm?.tempo
        record.onsetRate = features.rhythm?.onsetRate
        record.analyzedAt = now
        do {
            try await uploads.insertUpload(record, features: features, allowance: allowance, at: now)
        } catch StorageError.uploadRefused(let refusal) {
            files.remove(file.path)
            throw quotaRefusal(refusal)
        } catch {
            files.remove(file.path)
            throw error
        }
        await catalog.invalidate()
        if let print = features.fingerprint { await recognizer.remember(trackID, print) }
        logger.info("Upload stored: \(name) by \(person.id) as track \(trackID), \(ByteCount.text(size))")
        return UploadReceipt(upload: view(record))
    }

    /// A track on the server, that the uploader may find, with the same
    /// audio from the start (Chromaprint) and the same length.
    private func sameRecording(_ print: AudioFingerprint?, length: Int64, for personID: String) async throws -> TrackRecord? {
        guard let print, let match = try await recognizer.match(print), match.similarity >= Self.sameRecording,
            let offset = match.offsetMillis, abs(offset) <= 1_000,
            let track = try await tracks.track(id: match.trackID), track.isVisible(to: personID),
            abs(track.durationMs - length) <= Self.sameLengthMillis
        else { return nil }
        return track
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> UploadList {
        let person = try Self.uploader(context)
        let offset = try request.intQuery("offset", default: 0, range: 0...1_000_000)
        let mine = try await uploads.uploads(by: person.id, limit: 100, offset: offset)
        let usage = try await uploads.uploadUsage(personID: person.id, allowance: allowance)
        return UploadList(
            uploads: mine.map { view($0) }, usedBytes: usage.used, quotaBytes: usage.quota, maxFileBytes: maxFileBytes)
    }

    @Sendable func share(_ request: Request, context: AppRequestContext) async throws -> UploadView {
        try await setShared(true, context)
    }

    @Sendable func unshare(_ request: Request, context: AppRequestContext) async throws -> UploadView {
        try await setShared(false, context)
    }

    /// Only the uploader shares or takes back; anyone else is told there is
    /// no such upload, so unshared music can't be found by guessing ids.
    private func setShared(_ shared: Bool, _ context: AppRequestContext) async throws -> UploadView {
        let person = try Self.uploader(context)
        let track = try await ownUpload(context, person: person, orAdministrator: false)
        guard let changed = try await uploads.setShared(trackID: track.id, shared) else { throw noSuchUpload(track.id) }
        await catalog.invalidate()
        if !shared { await unsharedTrackLeaves(changed) }
        return view(changed)
    }

    /// The uploader deletes their own; an administrator anyone's (logged).
    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
        let person = try Self.uploader(context)
        let track = try await ownUpload(context, person: person, orAdministrator: true)
        let byAdministrator = track.uploaderID != person.id
        var audit: AuditEntry?
        if byAdministrator {
            let reason = try request.stringQuery("reason", maxLength: 500) ?? ""
            audit = AuditEntry(
                at: clock.now(), actorID: person.id, actorName: person.displayName, action: "remove-upload",
                subjectKind: "track", subjectID: track.id, subjectName: "\(track.title) (\(track.uploadName ?? track.id))",
                reason: reason)
        }
        guard let removed = try await uploads.deleteUpload(trackID: track.id, audit: audit) else { throw noSuchUpload(track.id) }
        files.remove(removed.path)
        await catalog.invalidate()
        await recognizer.invalidate()
        await directory.tracksLeftTheLibrary([removed.id])
        return Response(status: .noContent)
    }

    @Sendable func everyone(_ request: Request, context: AppRequestContext) async throws -> [UploadView] {
        _ = try AdminController.administrator(context)
        let offset = try request.intQuery("offset", default: 0, range: 0...1_000_000)
        let records = try await uploads.allUploads(limit: 100, offset: offset)
        var names: [String: String] = [:]
        for id in Set(records.compactMap(\.uploaderID)) {
            names[id] = try await people.person(id: id)?.displayName
        }
        return records.map { record in
            var view = view(record)
            view.uploaderID = record.uploaderID
            view.uploaderName = record.uploaderID.flatMap { names[$0] } ?? "A deleted account"
            return view
        }
    }

    @Sendable func setQuota(_ request: Request, context: AppRequestContext) async throws -> Response {
        let admin = try AdminController.administrator(context)
        let id = try context.id("id")
        let body = try await request.decode(as: UploadQuotaRequest.self, context: context)
        if let megabytes = body.megabytes, !(0...1_048_576).contains(megabytes) {
            throw APIError.badRequest("A quota is 0 to 1,048,576 MB (1 TB), or null for the server's default.", code: .invalidLimit)
        }
        guard let person = try await people.person(id: id), person.kind == .user else {
            throw APIError.notFound("No user with id \(id).")
        }
        let bytes = body.megabytes.map { Int64($0) << 20 }
        let entry = AuditEntry(
            at: clock.now(), actorID: admin.id, actorName: admin.displayName, action: "set-upload-quota",
            subjectKind: "person", subjectID: person.id, subjectName: person.displayName,
            reason: bytes.map { ByteCount.text($0) } ?? "the server's default")
        guard try await uploads.setUploadQuota(personID: person.id, bytes: bytes, audit: entry) else {
            throw APIError.notFound("No user with id \(id).")
        }
        return Response(status: .noContent)
    }

    // MARK: -

    /// Uploading is for accounts: a guest's music would outlive the guest.
    static func uploader(_ context: AppRequestContext) throws -> PersonRecord {
        guard let person = context.caller.person else {
            throw APIError(.unauthorized, code: .signInRequired, "Sign in to upload music.")
        }
        guard person.kind == .user else {
            throw APIError(.forbidden, code: .forbidden, "Guests can't upload music: make an account first.")
        }
        return person
    }

    private func ownUpload(_ context: AppRequestContext, person: PersonRecord, orAdministrator: Bool) async throws
        -> TrackRecord
    {
        let id = try context.id("id")
        guard let track = try await tracks.track(id: id), track.isUpload,
            track.uploaderID == person.id || (orAdministrator && context.caller.isAdministrator)
        else { throw noSuchUpload(id) }
        return track
    }

    /// Taken back: it leaves the other people's stations it was on.
    private func unsharedTrackLeaves(_ track: TrackRecord) async {
        await directory.privateTrackLeaves(track.id, keepingOwner: track.uploaderID)
    }

    private func view(_ record: TrackRecord) -> UploadView {
        UploadView(
            track: TrackSummary(record), name: record.uploadName ?? record.title, bytes: record.size, shared: record.shared,
            uploadedAt: record.addedAt)
    }

    private func noSuchUpload(_ id: String) -> APIError { APIError.notFound("No upload of yours with id \(id).") }

    private func tooLarge() -> APIError {
        APIError(.contentTooLarge, code: .tooLarge, "One file is at most \(ByteCount.text(maxFileBytes)).")
    }

    private func quotaRefusal(_ refusal: UploadAllowance.Refusal) -> APIError {
        APIError(.conflict, code: .uploadQuota, "\(StorageError.uploadRefused(refusal))")
    }
}
