/// A short recording played between songs (Stationhead's voice clips): the
/// DJ's own, or a guest's shout-out the host approved first.
public struct VoiceClip: Sendable, Equatable, Codable {
    public enum Status: String, Sendable, Codable {
        /// A guest's clip waiting for the host.
        case pending
        /// On its way to the air (or played).
        case approved
    }

    public var id: String
    public var stationID: StationID
    public var personID: String
    /// The author's display name when they sent it.
    public var name: String
    /// A line for the listeners ("For Ana, happy birthday"); may be empty.
    public var note: String
    public var durationMs: Int64
    /// The stored file's size, which counts against the station's quota.
    public var bytes: Int
    public var status: Status
    public var createdAt: EpochMillis

    public init(
        id: String, stationID: StationID, personID: String, name: String, note: String, durationMs: Int64, bytes: Int,
        status: Status, createdAt: EpochMillis
    ) {
        self.id = id
        self.stationID = stationID
        self.personID = personID
        self.name = name
        self.note = note
        self.durationMs = durationMs
        self.bytes = bytes
        self.status = status
        self.createdAt = createdAt
    }

    /// The track id its timeline entry carries.
    public var trackID: TrackID { ClipTrack.id(self.id) }
}

/// What a clip may be, and how much of them a station keeps.
public enum ClipLimits {
    /// The longest clip, in ms (with a little slack for the recorder's stop).
    public static let maxDurationMs: Int64 = 30_500
    public static let minDurationMs: Int64 = 500
    /// An upload's largest body: 30 s of uncompressed 48 kHz stereo is 5.8 MB.
    public static let maxUploadBytes = 8 << 20
    /// Each station's stored clips, together.
    public static let defaultQuotaBytes = 20 << 20
    /// Clips one person may have waiting for the host on one station.
    public static let pendingPerPerson = 3
    /// A clip's note.
    public static let noteLength = 0...120

    /// Whether a clip fits the station's quota: listeners' clips waiting for
    /// the host may fill half of it, never the host's share, so a room's
    /// shout-outs never stop the host's own clip; what is on its way to the
    /// air fills the whole.
    public static func fits(
        _ clip: VoiceClip, approvedBytes: Int, pendingBytes: Int, quotaBytes: Int
    ) -> Bool {
        switch clip.status {
        case .approved: approvedBytes + clip.bytes <= quotaBytes
        case .pending: pendingBytes + clip.bytes <= quotaBytes / 2 && approvedBytes + pendingBytes + clip.bytes <= quotaBytes
        }
    }
}

/// The track id of a voice clip's entry: `clip:<id>`.
public enum ClipTrack {
    public static let prefix = "clip:"

    public static func id(_ clipID: String) -> TrackID { prefix + clipID }

    /// The clip a track id names; nil for any other id.
    public static func parse(_ id: TrackID) -> String? {
        guard id.hasPrefix(prefix) else { return nil }
        let clip = id.dropFirst(prefix.count)
        return clip.isEmpty ? nil : String(clip)
    }
}

/// Clip ids: random, with their own letter.
public enum ClipIDs {
    public static func make(using rng: inout some RandomNumberGenerator) -> String {
        let hex = String(rng.next(), radix: 16)
        return "v" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}
