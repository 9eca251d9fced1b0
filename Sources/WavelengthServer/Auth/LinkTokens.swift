import WavelengthCore
import WavelengthStore

/// Tokens carried in a URL by what can't send headers: a player on a
/// stream link, a calendar app on a feed. A token stands for the person it
/// was made for, on its own station and for its own purpose only; the gate
/// then checks that person as if they had called, so a kick, a ban or a
/// station gone private closes their links too.
struct LinkTokens: Sendable {
    let tokens: any LinkTokenRepository
    let people: any PeopleRepository

    /// A new token for the person, keeping at most `keep` of theirs for this
    /// station and purpose live. Only its hash is stored.
    func issue(_ purpose: LinkPurpose, stationID: StationID, personID: String, keep: Int, at now: EpochMillis) async throws
        -> String
    {
        let token = Secrets.token()
        try await tokens.issueLinkToken(
            hash: Secrets.hash(token), purpose: purpose, stationID: stationID, personID: personID, keep: keep, at: now)
        return token
    }

    /// Revokes every token of the caller's for this station and purpose:
    /// 401 when nobody is signed in, 404 when there was none. `noun` names
    /// them in the answer ("stream link").
    func revokeAll(_ purpose: LinkPurpose, on stationID: StationID, for caller: Caller, noun: String) async throws {
        guard let person = caller.person else {
            throw APIError(.unauthorized, code: .signInRequired, "Sign in to revoke your \(noun)s.")
        }
        guard try await tokens.revokeLinkTokens(purpose: purpose, stationID: stationID, personID: person.id) > 0 else {
            throw APIError.notFound("You have no \(noun) for this station.")
        }
    }

    /// Who the token stands for on the station, or nil when it was revoked,
    /// is for another station or purpose, or was never made.
    func caller(_ token: String, _ purpose: LinkPurpose, on stationID: StationID) async throws -> Caller? {
        guard let holder = try await tokens.linkTokenHolder(hash: Secrets.hash(token), purpose: purpose),
            holder.stationID == stationID, let person = try await people.person(id: holder.personID)
        else { return nil }
        return Caller(person: person, sessionID: nil, viaCookie: false)
    }
}
