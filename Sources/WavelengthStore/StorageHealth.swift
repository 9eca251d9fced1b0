import WavelengthCore

/// Whether storage still takes writes: a server whose every save fails is
/// not healthy, however well it reads.
public protocol StorageHealth: Sendable {
    /// Writes one small row in its own transaction; throws when storage
    /// refuses (read-only, full, gone).
    func probeWrite(at now: EpochMillis) async throws
}
