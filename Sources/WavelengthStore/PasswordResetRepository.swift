import WavelengthCore

/// Password reset links an administrator makes for a user who lost theirs.
/// Only the token's hash is kept; a person holds one live link at a time,
/// and it works once, before it expires.
public protocol PasswordResetRepository: Sendable {
    /// Keeps a new link for the user (their earlier unused ones stop
    /// working), with the administrator's audit entry, in one transaction.
    /// False when there is no such user.
    func issuePasswordReset(tokenHash: String, personID: String, expiresAt: EpochMillis, audit: AuditEntry) async throws -> Bool
    /// The user a live link is for (nil: unknown, used or expired).
    func passwordResetHolder(tokenHash: String, at now: EpochMillis) async throws -> PersonRecord?
    /// Uses the link: the new password hash is set and every session of the
    /// person ends, in one transaction. Nil when the link isn't live.
    func redeemPasswordReset(tokenHash: String, newPasswordHash: String, at now: EpochMillis) async throws -> PersonRecord?
}
