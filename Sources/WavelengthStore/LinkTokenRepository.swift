import WavelengthCore

/// What a link token opens. Players and calendar apps can't send headers,
/// so for a station that isn't public they carry a token in the URL, which
/// stands for the person it was made for.
public enum LinkPurpose: String, Sendable, CaseIterable {
    /// The station's stream (`/stream/{id}.mp3?token=`).
    case stream
    /// The station's calendar feeds (`…/schedule.ics?token=`).
    case calendar
}

/// Link tokens for stations that aren't public. Only a token's SHA-256 is
/// kept. A person holds at most `keep` live tokens of one purpose on one
/// station: a new one past that revokes the oldest, and all can be revoked.
public protocol LinkTokenRepository: Sendable {
    /// Keeps a new token for the person on the station, and revokes their
    /// oldest live tokens of that purpose past `keep`, in one transaction.
    func issueLinkToken(
        hash: String, purpose: LinkPurpose, stationID: StationID, personID: String, keep: Int, at: EpochMillis
    ) async throws
    /// Whose token this is, when it is live and for this purpose.
    func linkTokenHolder(hash: String, purpose: LinkPurpose) async throws -> (stationID: StationID, personID: String)?
    /// Revokes the person's live tokens of that purpose on the station; how many there were.
    func revokeLinkTokens(purpose: LinkPurpose, stationID: StationID, personID: String) async throws -> Int
}
