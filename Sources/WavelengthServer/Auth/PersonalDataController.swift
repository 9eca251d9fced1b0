import Foundation
import Hummingbird
import NIOPosix
import WavelengthCore
import WavelengthStore
import WavelengthWire

/// "Download my data": everything the server keeps of the signed-in
/// person, as one tar archive: their account, stations and shows, likes,
/// follows, reminders, blocks, chat messages, voice clips (the audio
/// too) and the list of their uploads. Made in memory off the cooperative pool, a couple at a time.
struct PersonalDataController {
    let people: any PeopleRepository
    let access: any StationAccessRepository
    let schedule: any ScheduleRepository
    let likes: any LikesRepository
    let tracks: any TrackRepository
    let blocks: any BlockRepository
    let personal: any PersonalDataRepository
    let uploads: any UploadRepository
    let clipFiles: ClipStore
    let clock: any ServerClock
    /// Exports read files and hold an archive in memory: two at once, one per person.
    private let slots = FairSlots(
        slots: 2, maxWaitingPerClient: 0, maxWaiting: 4,
        busy: "Other downloads are being made; try again in a few seconds.", retryAfterSeconds: 5)

    /// What an archive holds at most.
    static let messages = 10_000
    static let clips = 200

    init(storage: any Storage, clipFiles: ClipStore, clock: any ServerClock) {
        (people, access, schedule, likes, tracks, blocks, personal) = (storage, storage, storage, storage, storage, storage, storage)
        uploads = storage
        self.clipFiles = clipFiles
        self.clock = clock
    }

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/api/auth/export", use: export)
    }

    @Sendable func export(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let person = context.caller.person else {
            throw APIError(.unauthorized, code: .signInRequired, "Sign in to download your data.")
        }
        return try await slots.run(for: person.id) {
            let files = try await gather(person)
            let archive = try await NIOThreadPool.singleton.runIfActive { Self.archive(files, at: clock.now()) }
            var headers = HTTPFields()
            headers[.contentType] = "application/x-tar"
            headers[.contentDisposition] = "attachment; filename=\"wavelength-\(person.handle ?? person.id).tar\""
            headers[.cacheControl] = "private, no-store"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: archive)))
        }
    }

    /// The archive's JSON files, and the clips' audio to read.
    struct Files: Sendable {
        var json: [(name: String, data: [UInt8])]
        var clips: [(name: String, path: String)]
    }

    private func gather(_ person: PersonRecord) async throws -> Files {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        func json(_ value: some Encodable) throws -> [UInt8] { Array(try encoder.encode(value)) }

        let stations = try await access.stations(ownedBy: [person.id])
        var shows: [Show] = []
        for station in stations { shows += try await schedule.shows(stationID: station.id) }
        let liked = try await likes.likedTracks(personID: person.id, limit: 10_000)
        // An upload its uploader took back is named by id alone.
        let known = try await tracks.tracks(ids: liked).filter { $0.value.isVisible(to: person.id) }
        let messages = try await personal.chatMessages(by: person.id, limit: Self.messages)
        let clips = try await personal.clips(by: person.id, limit: Self.clips)
        let view = { (p: PersonRecord) in PersonView(p, stationID: nil) }
        var files = Files(json: [], clips: [])
        files.json.append(("README.txt", Array(Self.readme(person).utf8)))
        files.json.append(("account.json", try json(ExportedAccount(person))))
        files.json.append((
            "stations.json",
            try json(stations.map { ExportedStation(id: $0.id, name: $0.name, visibility: $0.visibility.rawValue, createdAt: $0.createdAt) })
        ))
        files.json.append(("shows.json", try json(shows)))
        files.json.append((
            "likes.json",
            try json(liked.map { id in ExportedTrack(id: id, title: known[id]?.metadata.title, artist: known[id]?.metadata.artist) })
        ))
        files.json.append(("following.json", try json(try await people.following(of: person.id, limit: 10_000).map(view))))
        files.json.append(("followers.json", try json(try await people.followers(of: person.id, limit: 10_000).map(view))))
        files.json.append((
            "reminders.json",
            try json(try await schedule.reminders(personID: person.id).map { ExportedReminder(showID: $0.showID, leadMinutes: $0.leadMinutes) })
        ))
        files.json.append(("blocks.json", try json(try await blocks.blocked(by: person.id).map(view))))
        files.json.append((
            "chat.json",
            try json(messages.map { ExportedMessage(id: $0.message.id, stationID: $0.stationID, text: $0.message.text, sentAt: $0.message.sentAt) })
        ))
        files.json.append((
            "clips.json",
            try json(clips.map { ExportedClip(id: $0.id, stationID: $0.stationID, note: $0.note, durationMs: $0.durationMs, createdAt: $0.createdAt) })
        ))
        files.clips = clips.map { ("clips/\($0.id).mp3", clipFiles.path(for: $0.id)) }
        // The music itself may be gigabytes, more than an archive made in
        // memory holds: each is listed with where to download it.
        var uploaded: [TrackRecord] = []
        while uploaded.count < 100_000 {
            let page = try await uploads.uploads(by: person.id, limit: 100, offset: uploaded.count)
            uploaded += page
            if page.count < 100 { break }
        }
        files.json.append((
            "uploads.json",
            try json(uploaded.map {
                ExportedUpload(
                    id: $0.id, name: $0.uploadName ?? $0.title, title: $0.title, artist: $0.artist, album: $0.album, bytes: $0.size,
                    shared: $0.shared, uploadedAt: $0.addedAt, audioURL: "/api/tracks/\($0.id)/audio")
            })
        ))
        return files
    }

    /// Runs on the thread pool: it reads the clips' files.
    static func archive(_ files: Files, at now: EpochMillis) -> [UInt8] {
        var tar = TarArchive()
        let seconds = now / 1000
        for file in files.json { tar.add("wavelength/" + file.name, file.data, modified: seconds) }
        for clip in files.clips {
            // A clip whose file is gone (a crash between row and file) is left out.
            guard let data = FileManager.default.contents(atPath: clip.path) else { continue }
            tar.add("wavelength/" + clip.name, Array(data), modified: seconds)
        }
        return tar.finish()
    }

    static func readme(_ person: PersonRecord) -> String {
        """
        Everything this Wavelength server keeps of \(person.displayName)\(person.handle.map { " (@\($0))" } ?? ""):

        account.json     your account
        stations.json    the stations you own; shows.json their shows
        likes.json       the songs you liked
        following.json   whom you follow; followers.json who follows you
        reminders.json   the shows you asked to be reminded of
        blocks.json      whom you block
        chat.json        what you wrote in any station's chat (newest \(messages))
        clips.json       the voice clips you sent, their audio in clips/ (newest \(clips))
        uploads.json     the music you uploaded; each file downloads from its audioURL

        Times are milliseconds since 1970 (UTC).

        """
    }
}

private struct ExportedUpload: Encodable {
    var id: String
    var name: String
    var title: String
    var artist: String
    var album: String
    var bytes: Int64
    var shared: Bool
    var uploadedAt: EpochMillis
    var audioURL: String
}

private struct ExportedAccount: Encodable {
    var id: String
    var kind: String
    var handle: String?
    var displayName: String
    var createdAt: EpochMillis

    init(_ person: PersonRecord) {
        (id, kind, handle, displayName, createdAt) = (person.id, person.kind.rawValue, person.handle, person.displayName, person.createdAt)
    }
}

private struct ExportedStation: Encodable {
    var id: String
    var name: String
    var visibility: String
    var createdAt: EpochMillis
}

private struct ExportedTrack: Encodable {
    var id: String
    var title: String?
    var artist: String?
}

private struct ExportedReminder: Encodable {
    var showID: String
    var leadMinutes: Int
}

private struct ExportedMessage: Encodable {
    var id: String
    var stationID: String
    var text: String
    var sentAt: EpochMillis
}

private struct ExportedClip: Encodable {
    var id: String
    var stationID: String
    var note: String
    var durationMs: Int64
    var createdAt: EpochMillis
}
