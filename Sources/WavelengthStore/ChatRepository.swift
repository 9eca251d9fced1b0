import WavelengthCore

/// Where a station's chat and its songs' reactions are kept.
public protocol ChatRepository: Sendable {
    /// Saves one change to a station's chat in one transaction.
    func saveChat(stationID: StationID, _ change: ChatSave) async throws
    /// The newest messages (oldest first), the running mutes and slow mode.
    func chatRoom(stationID: StationID, limit: Int, now: EpochMillis) async throws -> ChatRoom.Saved
    /// Deletes every station's messages sent before `instant` (the retention).
    func purgeChat(before instant: EpochMillis) async throws -> Int
    /// Adds a burst of reactions to the totals of the play it was for.
    func recordReactions(stationID: StationID, _ burst: Reactions.Burst) async throws
    /// A play's reaction totals.
    func reactions(stationID: StationID, entryID: EntryID) async throws -> [String: Int]
}
