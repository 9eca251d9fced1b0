import WavelengthCore

/// Music someone uploaded, as its uploader (or an administrator) sees it.
public struct UploadView: Sendable, Codable, Equatable {
    public var track: TrackSummary
    /// The file's name on the uploader's device.
    public var name: String
    public var bytes: Int64
    public var shared: Bool
    public var uploadedAt: EpochMillis
    /// In the administrators' list only.
    public var uploaderID: String?
    public var uploaderName: String?

    public init(
        track: TrackSummary, name: String, bytes: Int64, shared: Bool, uploadedAt: EpochMillis, uploaderID: String? = nil,
        uploaderName: String? = nil
    ) {
        self.track = track
        self.name = name
        self.bytes = bytes
        self.shared = shared
        self.uploadedAt = uploadedAt
        self.uploaderID = uploaderID
        self.uploaderName = uploaderName
    }
}

/// What an upload came to: a new track of the uploader's (201), or a track
/// already on the server with the same audio (200, `duplicate`), which
/// was not stored again.
public struct UploadReceipt: Sendable, Codable, Equatable {
    public var upload: UploadView?
    public var duplicate: TrackSummary?

    public init(upload: UploadView? = nil, duplicate: TrackSummary? = nil) {
        self.upload = upload
        self.duplicate = duplicate
    }
}

/// A person's uploads, newest first, with the room they have left.
public struct UploadList: Sendable, Codable, Equatable {
    public var uploads: [UploadView]
    public var usedBytes: Int64
    public var quotaBytes: Int64
    /// The largest one file may be.
    public var maxFileBytes: Int64

    public init(uploads: [UploadView], usedBytes: Int64, quotaBytes: Int64, maxFileBytes: Int64) {
        self.uploads = uploads
        self.usedBytes = usedBytes
        self.quotaBytes = quotaBytes
        self.maxFileBytes = maxFileBytes
    }
}

/// An administrator's quota for one person, in megabytes; null gives back
/// the server's default.
public struct UploadQuotaRequest: Sendable, Codable, Equatable {
    public var megabytes: Int?

    public init(megabytes: Int?) {
        self.megabytes = megabytes
    }
}

/// A track's tags after a correction, with what is corrected.
public struct TagFixView: Sendable, Codable, Equatable {
    public var track: TrackSummary
    public var corrected: TagOverride

    public init(track: TrackSummary, corrected: TagOverride) {
        self.track = track
        self.corrected = corrected
    }
}
