import WavelengthCore

/// A station's shows and the reminders people set for them.
public protocol ScheduleRepository: Sendable {
    func shows(stationID: StationID) async throws -> [Show]
    func show(id: ShowID) async throws -> Show?
    func shows(ids: [ShowID]) async throws -> [Show]
    /// Inserts `show`, or replaces the one with its id, in one transaction,
    /// once `check` accepts the station's shows as they are inside that
    /// transaction (overlaps and limits), so two editors racing can't both
    /// pass it.
    func saveShow(_ show: Show, check: @escaping @Sendable ([Show]) throws -> Void) async throws
    /// Whether there was such a show; its reminders go with it.
    func deleteShow(id: ShowID) async throws -> Bool
    /// Sets or updates the person's reminder; refuses
    /// (`StorageError.reminderLimit`) a new one beyond `limit`, in the same
    /// transaction.
    func setReminder(_ reminder: ShowReminder, limit: Int) async throws
    /// Whether there was one.
    func removeReminder(personID: String, showID: ShowID) async throws -> Bool
    func reminders(personID: String) async throws -> [ShowReminder]
}

/// "Remind me" for one show.
public struct ShowReminder: Sendable, Equatable {
    public var personID: String
    public var showID: ShowID
    /// How long before an episode to remind.
    public var leadMinutes: Int
    public var createdAt: EpochMillis

    public init(personID: String, showID: ShowID, leadMinutes: Int, createdAt: EpochMillis) {
        self.personID = personID
        self.showID = showID
        self.leadMinutes = leadMinutes
        self.createdAt = createdAt
    }
}
