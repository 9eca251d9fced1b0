import WavelengthCore

/// Personal stream keys: the password broadcast software (BUTT, Mixxx,
/// ffmpeg) sends to go live. Only the key's SHA-256 is kept; a person holds
/// one at a time, and a new one replaces the old.
public protocol StreamKeyRepository: Sendable {
    /// Keeps a new key for the person, replacing any older one.
    func setStreamKey(personID: String, hash: String, at: EpochMillis) async throws
    /// Whose key this is.
    func streamKeyHolder(hash: String) async throws -> String?
    /// When the person's key was made, if they have one.
    func streamKeyCreated(personID: String) async throws -> EpochMillis?
    /// Whether there was one.
    func removeStreamKey(personID: String) async throws -> Bool
}
