import WavelengthWire
import Hummingbird
import WavelengthCore
import WavelengthStore

/// Answers "who is this person on this station, and may they listen?"
/// from the station's record and what storage knows, through the pure
/// `ListenPolicy` and `StationPermissions`.
struct StationGate: Sendable {
    let access: any StationAccessRepository
    /// The station's shows, whose hosts are co-DJs while they air; with
    /// the clock that says what airs now.
    var schedule: (any ScheduleRepository)? = nil
    var clock: (any ServerClock)? = nil
    /// Where the owner stands: a suspended owner's stations are off the air.
    var operators: (any OperatorRepository)? = nil

    struct Verdict: Sendable {
        var role: StationRole
        var decision: ListenDecision
        /// The episode the caller hosts now, or within a day.
        var hosting: HostingWindow? = nil

        /// Whether the verdict allows `operation`: hosting the show on the
        /// air lifts the role only for what `StationPermissions.onAir` lists.
        func allows(_ operation: StationOperation) -> Bool {
            guard let hosting else { return StationPermissions.allows(role, operation) }
            return StationPermissions.allows(role, hosting: hosting.baseRole, operation)
        }
    }

    func verdict(_ caller: Caller, on record: StationRecord) async throws -> Verdict {
        if let operators, let ownerID = record.ownerID, try await operators.standing(personID: ownerID)?.isSuspended == true {
            throw APIError(.forbidden, code: .suspended, "This station is off the air: its owner's account is suspended.")
        }
        var facts = AccessFacts(hasIdentity: caller.person != nil)
        var hosting: HostingWindow?
        if let personID = caller.personID {
            facts.isOwner = record.ownerID == personID
            let stored = try await access.access(stationID: record.id, personID: personID, ownerID: record.ownerID)
            facts.isCoDJ = stored.memberRole == .codj
            facts.isMember = stored.memberRole != nil
            facts.isBanned = stored.banned
            facts.followsOwner = stored.followsOwner
            if ShowHosts.mayHost(facts), let episode = try await hostedEpisode(personID, on: record) {
                let now = clock!.now()
                hosting = HostingWindow(
                    start: episode.start, end: episode.end, baseRole: ListenPolicy.role(facts, visibility: record.visibility))
                facts.isCoDJ = episode.start <= now
            }
        }
        return Verdict(
            role: ListenPolicy.role(facts, visibility: record.visibility),
            decision: ListenPolicy.decide(facts, visibility: record.visibility), hosting: hosting)
    }

    /// The first episode from now, within a day, of a show the person hosts.
    private func hostedEpisode(_ personID: String, on record: StationRecord) async throws -> Episode? {
        guard let schedule, let clock else { return nil }
        let shows = try await schedule.shows(stationID: record.id).filter { $0.hostIDs.contains(personID) }
        guard !shows.isEmpty else { return nil }
        let now = clock.now()
        return StationSchedule(shows: shows).episodes(overlapping: now, now + 86_400_000).first
    }

    /// A live connection's seat role, with the show it hosts, if any; or a
    /// refusal when the caller may not even listen.
    func seat(_ caller: Caller, on record: StationRecord) async throws -> (role: StationRole, hosting: HostingWindow?) {
        let verdict = try await verdict(caller, on: record)
        try Self.check(verdict.decision)
        return (verdict.role, verdict.hosting)
    }

    /// The caller's role, or a refusal when they may not even listen.
    func requireListener(_ caller: Caller, on record: StationRecord) async throws -> StationRole {
        let verdict = try await verdict(caller, on: record)
        try Self.check(verdict.decision)
        return verdict.role
    }

    /// The caller's role when it allows `operation`, or a 401/403.
    func require(_ operation: StationOperation, _ caller: Caller, on record: StationRecord) async throws -> StationRole {
        guard caller.person != nil else {
            throw APIError(.unauthorized, code: .signInRequired, "Sign in to do that.")
        }
        let verdict = try await verdict(caller, on: record)
        guard verdict.allows(operation) else {
            throw APIError(.forbidden, code: .forbidden, Self.refusal(operation))
        }
        return verdict.role
    }

    static func check(_ decision: ListenDecision) throws {
        switch decision {
        case .allowed: return
        case .signInRequired:
            throw APIError(.unauthorized, code: .signInRequired, "This station is private: join it or sign in first.")
        case .notAMember:
            throw APIError(.forbidden, code: .notAMember, "This station is private, and you haven't joined it.")
        case .banned:
            throw APIError(.forbidden, code: .banned, "You were banned from this station.")
        }
    }

    static func refusal(_ operation: StationOperation) -> String {
        switch operation {
        case .command: "Only the station's DJ and co-DJs can control the music."
        case .request, .vote: "Only people who may listen here can request and vote."
        case .leave: "Only members can leave; owners can end the session instead."
        default: "Only the station's owner\(StationPermissions.allows(.codj, operation) ? " and co-DJs" : "") can do that."
        }
    }
}
