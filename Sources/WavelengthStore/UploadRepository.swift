import WavelengthCore

/// Music people upload through the web app: tracks with an uploader,
/// stored beside the library's. Each change is one transaction; the
/// quota checks count what is stored inside the transaction that adds,
/// so racing uploads can't pass them together.
public protocol UploadRepository: Sendable {
    /// Adds an uploaded track (its `uploaderID` set) with its analysis.
    /// Throws `StorageError.uploadQuota` when the uploader's uploads would
    /// pass their quota, `.uploadCap` when everyone's would pass the server's.
    func insertUpload(_ track: TrackRecord, features: AudioFeatures, allowance: UploadAllowance, at: EpochMillis)
        async throws
    /// The person's uploads, newest first.
    func uploads(by personID: String, limit: Int, offset: Int) async throws -> [TrackRecord]
    /// Everyone's uploads, newest first, for the administrators.
    func allUploads(limit: Int, offset: Int) async throws -> [TrackRecord]
    /// Bytes the person's uploads take, and their quota.
    func uploadUsage(personID: String, allowance: UploadAllowance) async throws -> (used: Int64, quota: Int64)
    /// Shares the upload with the server, or takes it back. Nil when there
    /// is no such upload.
    func setShared(trackID: TrackID, _ shared: Bool) async throws -> TrackRecord?
    /// Removes an uploaded track's row (and its analysis); the caller
    /// removes the file. Nil when there is no such upload.
    func deleteUpload(trackID: TrackID, audit: AuditEntry?) async throws -> TrackRecord?
    /// An administrator's quota for the person; nil gives back the default.
    func setUploadQuota(personID: String, bytes: Int64?, audit: AuditEntry) async throws -> Bool
    /// Every stored upload's path, for the start-up sweep of files no row names.
    func uploadPaths() async throws -> Set<String>
    /// A track (the library's or an upload) with this content fingerprint
    /// and size, among what `viewer` may find: the same file again.
    func upload(contentFingerprint: String, size: Int64, visibleTo viewer: String) async throws -> TrackRecord?
}

/// An administrator's corrections of tags.
public protocol TagOverrideRepository: Sendable {
    /// Keeps the correction (or, empty, drops it) and rewrites the track's
    /// tags as `tags`, the file's own with the correction over them, with the
    /// audit entry, in one transaction. Nil when there is no such track.
    func setTagOverride(trackID: TrackID, _ override: TagOverride, tags: TrackTags, audit: AuditEntry) async throws
        -> TrackRecord?
    func tagOverride(trackID: TrackID) async throws -> TagOverride?
}
