import WavelengthCore
import WavelengthStore

/// Kicking and banning someone from a station, from the owner's controls
/// or a closed report: they are cut off from every connection they hold
/// at once, and everyone on the station is told.
struct StationRemoval: Sendable {
    let directory: StationDirectory
    let access: any StationAccessRepository
    let clock: any ServerClock
    /// Live sources: a banned person's is cut.
    var sources: LiveSources? = nil

    func remove(_ target: PersonRecord, from hub: StationHub, ban: Bool) async throws {
        let id = hub.id
        if ban {
            try await access.ban(stationID: id, personID: target.id, at: clock.now())
        } else {
            try await access.leave(stationID: id, personID: target.id)
        }
        await hub.remove(personID: target.id, name: target.displayName, reason: ban ? "banned" : "kicked")
        await directory.accessChanged(id)
        // A ban wins over the show they host: their live source goes too.
        if ban { await sources?.revalidate(stationID: id) }
    }
}

/// Deleting a station for good (an administrator's, from the control room
/// or a report): everyone tuned in is told and let go, then its rows go in
/// one transaction with the audit entry, then its voice clips' files.
struct StationDeletion: Sendable {
    let directory: StationDirectory
    let operators: any OperatorRepository
    let clipRecords: any ClipRepository
    let clipFiles: ClipStore

    /// False when there was no such station.
    func delete(_ id: StationID, audit: AuditEntry) async throws -> Bool {
        let clips = try await clipRecords.clips(stationID: id, personID: nil, limit: 10_000)
        await directory.stopForDeletion(id)
        guard try await operators.deleteStation(id: id, audit: audit) else { return false }
        for clip in clips { clipFiles.remove(clip.id) }
        return true
    }
}

/// Deleting a person for good (an administrator's, or their own): they are
/// let go everywhere and their messages leave every room running here,
/// their stations stop, then their rows go in one transaction with the
/// audit entry, then their clips' files. What others keep of them is
/// docs/ARCHITECTURE.md's "Deleting a person".
struct PersonDeletion: Sendable {
    let directory: StationDirectory
    let operators: any OperatorRepository
    let access: any StationAccessRepository
    let clipFiles: ClipStore
    let uploadFiles: UploadFiles
    let catalog: LibraryCatalog

    /// False when there was no such person.
    func delete(_ person: PersonRecord, audit: AuditEntry) async throws -> Bool {
        let owned = try await access.stations(ownedBy: [person.id]).map(\.id)
        await directory.personDeleted(person.id)
        for id in owned { await directory.stopForDeletion(id) }
        guard let gone = try await operators.deletePerson(id: person.id, audit: audit) else { return false }
        for id in gone.stations where !owned.contains(id) { await directory.stopForDeletion(id) }
        for clip in gone.clips { clipFiles.remove(clip) }
        if !gone.uploads.isEmpty {
            for upload in gone.uploads { uploadFiles.remove(upload.path) }
            await catalog.invalidate()
            await directory.tracksLeftTheLibrary(Set(gone.uploads.map(\.id)))
        }
        return true
    }
}
