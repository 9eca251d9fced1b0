import Hummingbird
import WavelengthCore
import WavelengthLibrary
import WavelengthStore
import WavelengthWire

/// An administrator fixes a track's title, artist or album. The fix is
/// kept over the file's own tags (never written into the file, which may
/// be read-only or shared), and a rescan of a changed file keeps it.
struct TagFixController {
    let tracks: any TrackRepository
    let overrides: any TagOverrideRepository
    let roots: LibraryRoots
    let catalog: LibraryCatalog
    let clock: any ServerClock

    static let maxLength = 200

    func addRoutes(to router: Router<AppRequestContext>) {
        router.put("/api/admin/tracks/{id}/tags", use: fix)
    }

    @Sendable func fix(_ request: Request, context: AppRequestContext) async throws -> TagFixView {
        let admin = try AdminController.administrator(context)
        let id = try context.id("id")
        // Each field given replaces the file's own; a null or empty one gives the file's back.
        let body = try await request.decode(as: TagOverride.self, context: context)
        let override = TagOverride(
            title: try Self.field(body.title, "title"), artist: try Self.field(body.artist, "artist"),
            album: try Self.field(body.album, "album"))
        guard let track = try await tracks.track(id: id) else { throw APIError.notFound("No track with id \(id).") }
        // The file's own tags, read again, so a field given back is the file's.
        guard let path = roots.confine(track.path) else {
            throw APIError(.conflict, code: .conflict, "The track's file is missing: rescan the library first.")
        }
        let root = roots.realRoots.first { path.hasPrefix($0 + "/") }
        let file = try await TagReader.offPool { try? TagReader.read(path: path, libraryRoot: root, fallbackName: track.uploadName) }
        guard let file else {
            throw APIError(.conflict, code: .conflict, "The track's file can't be read now: rescan the library first.")
        }
        let entry = AuditEntry(
            at: clock.now(), actorID: admin.id, actorName: admin.displayName, action: "fix-tags", subjectKind: "track",
            subjectID: track.id, subjectName: "\(track.artist) – \(track.title)",
            reason: override.isEmpty ? "the file's own tags" : Self.describe(override))
        guard
            let fixed = try await overrides.setTagOverride(
                trackID: track.id, override, tags: override.applied(to: file.tags), audit: entry)
        else { throw APIError.notFound("No track with id \(id).") }
        await catalog.invalidate()
        return TagFixView(track: TrackSummary(fixed), corrected: override)
    }

    /// Trimmed; empty is nil (the file's own).
    static func field(_ value: String?, _ name: String) throws -> String? {
        guard let trimmed = value?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        guard trimmed.count <= maxLength else {
            throw APIError.badRequest("A track's \(name) is at most \(maxLength) characters.", code: .tooLong)
        }
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw APIError.badRequest("A track's \(name) can't hold control characters.", code: .controlCharacters)
        }
        return trimmed
    }

    static func describe(_ override: TagOverride) -> String {
        [override.title.map { "title “\($0)”" }, override.artist.map { "artist “\($0)”" }, override.album.map { "album “\($0)”" }]
            .compactMap { $0 }.joined(separator: ", ")
    }
}
