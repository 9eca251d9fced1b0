import WavelengthCore

/// Stream links for stations that aren't public: a player that can't send
/// headers (a car, a smart speaker) carries a token in the URL instead. Only
/// the token's SHA-256 is kept. Each person holds at most one live link per
/// station: a new one replaces the old, and it can be revoked.
public protocol StreamTokenRepository: Sendable {
    /// Keeps a new token for the person on the station, revoking any older
    /// one, in one transaction.
    func issueStreamToken(hash: String, stationID: StationID, personID: String, at: EpochMillis) async throws
    /// Whose link this is, when it is live.
    func streamTokenHolder(hash: String) async throws -> (stationID: StationID, personID: String)?
    /// Revokes the person's link on the station; whether there was one.
    func revokeStreamToken(stationID: StationID, personID: String, at: EpochMillis) async throws -> Bool
}
