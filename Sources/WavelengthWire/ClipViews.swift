import WavelengthCore

/// A voice clip as clients see it.
public struct ClipView: Sendable, Codable, Equatable {
    public var id: String
    public var person: PersonRef
    public var note: String
    public var durationMs: Int64
    /// `pending` (a guest's, waiting for the host) or `approved`.
    public var status: VoiceClip.Status
    public var createdAt: EpochMillis
    /// The clip's audio (MP3); a pending clip's only for the host, co-DJs
    /// and its author.
    public var audioURL: String

    public init(_ clip: VoiceClip) {
        self.id = clip.id
        self.person = PersonRef(id: clip.personID, name: clip.name)
        self.note = clip.note
        self.durationMs = clip.durationMs
        self.status = clip.status
        self.createdAt = clip.createdAt
        self.audioURL = "/api/clips/\(clip.id)/audio"
    }
}

/// `GET /api/stations/{id}/clips`: the station's clips (the owner and
/// co-DJs), or your own; with how much of the quota they hold.
public struct ClipList: Sendable, Codable, Equatable {
    public var clips: [ClipView]
    public var usedBytes: Int
    public var quotaBytes: Int

    public init(clips: [ClipView], usedBytes: Int, quotaBytes: Int) {
        self.clips = clips
        self.usedBytes = usedBytes
        self.quotaBytes = quotaBytes
    }
}
