import WavelengthCore

/// Where voice clips' records are kept (their audio is a file of its own).
public protocol ClipRepository: Sendable {
    /// Keeps a new clip, in one transaction with the checks: refuses
    /// (`StorageError.clipQuota`) when the station's clips would pass
    /// `quotaBytes`, and (`StorageError.pendingClips`) when its author
    /// already has `pendingLimit` clips waiting there.
    func insertClip(_ clip: VoiceClip, quotaBytes: Int, pendingLimit: Int) async throws
    func clip(id: String) async throws -> VoiceClip?
    /// A station's clips, newest first: all of them, or one person's.
    func clips(stationID: StationID, personID: String?, limit: Int) async throws -> [VoiceClip]
    /// Marks a pending clip approved; false when it wasn't pending.
    func approveClip(id: String) async throws -> Bool
    /// Forgets a clip and answers it (its file is the caller's to delete).
    func deleteClip(id: String) async throws -> VoiceClip?
    /// The bytes a station's clips hold.
    func clipBytes(stationID: StationID) async throws -> Int
}
