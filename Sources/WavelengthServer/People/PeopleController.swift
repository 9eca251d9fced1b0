import Hummingbird
import WavelengthCore
import WavelengthStore
import WavelengthWire

/// People search, profiles, the follow graph, and the personal dial.
struct PeopleController {
    let people: any PeopleRepository
    let access: any StationAccessRepository
    let directory: StationDirectory
    let gate: StationGate
    let clock: any ServerClock

    /// Stations an administrator hid stay off the following sections too.
    var operators: (any OperatorRepository)? = nil
    /// No follow where a block stands, either way.
    var blocks: (any BlockRepository)? = nil

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/api/people", use: search)
        router.get("/api/people/{id}", use: profile)
        router.get("/api/people/{id}/followers", use: followers)
        router.get("/api/people/{id}/following", use: following)
        router.put("/api/people/{id}/follow", use: follow)
        router.delete("/api/people/{id}/follow", use: unfollow)
        router.get("/api/dial", use: dial)
    }

    @Sendable func search(_ request: Request, context: AppRequestContext) async throws -> [PersonView] {
        let query = (try request.stringQuery("q", maxLength: 40) ?? "").trimmingCharacters(in: .whitespaces)
        guard !query.isEmpty else { return [] }
        let found = try await people.searchPeople(prefix: query, limit: 20)
        return try await views(of: found)
    }

    @Sendable func profile(_ request: Request, context: AppRequestContext) async throws -> ProfileView {
        let person = try await user(context)
        return try await profile(of: person, for: context.caller)
    }

    @Sendable func followers(_ request: Request, context: AppRequestContext) async throws -> [PersonView] {
        try await views(of: people.followers(of: try await user(context).id, limit: 200))
    }

    @Sendable func following(_ request: Request, context: AppRequestContext) async throws -> [PersonView] {
        try await views(of: people.following(of: try await user(context).id, limit: 200))
    }

    @Sendable func follow(_ request: Request, context: AppRequestContext) async throws -> ProfileView {
        let me = try signedInUser(context)
        let person = try await user(context)
        guard person.id != me.id else {
            throw APIError(.conflict, code: .cannotFollowSelf, "You can't follow yourself.")
        }
        if let blocks, try await blocks.blockStands(between: me.id, and: person.id) {
            throw APIError(.forbidden, code: .blocked, "You can't follow this person.")
        }
        try await people.follow(me.id, person.id, at: clock.now())
        return try await profile(of: person, for: context.caller)
    }

    @Sendable func unfollow(_ request: Request, context: AppRequestContext) async throws -> ProfileView {
        let me = try signedInUser(context)
        let person = try await user(context)
        try await people.unfollow(me.id, person.id)
        return try await profile(of: person, for: context.caller)
    }

    /// Your own stations first, then those you co-DJ; then the stations of people you follow that
    /// are on the air, busiest first; then their quiet ones; then public
    /// stations on the air to discover; then quiet public stations.
    @Sendable func dial(_ request: Request, context: AppRequestContext) async throws -> DialView {
        let caller = context.caller
        var sections: [DialView.Section] = []
        var shown = Set<StationID>()
        func add(_ kind: String, _ views: [StationView]) {
            let fresh = views.filter { !shown.contains($0.id) }
            shown.formUnion(fresh.map(\.id))
            if !fresh.isEmpty { sections.append(.init(kind: kind, stations: fresh)) }
        }
        if let me = caller.person {
            let own = try await access.stations(ownedBy: [me.id])
            add("own", try await directory.views(of: own).map { $0.seen(as: .owner) })
            // The stations you co-DJ, right after your own: a co-DJ finds
            // the booth they were given without knowing its frequency.
            let coDJ = try await access.stations(coDJ: me.id).filter { $0.ownerID != me.id }
            add("codj", try await directory.views(of: coDJ).map { $0.seen(as: .codj) })
            let followed = try await people.followeeIDs(of: me.id)
            var visible: [StationView] = []
            let records = try await access.stations(ownedBy: followed)
            // Hidden by an administrator: off everyone's dial but the owner's.
            let hidden = try await operators?.hiddenFromDial(records.map(\.id)) ?? []
            for record in records where !hidden.contains(record.id) {
                let verdict = try await gate.verdict(caller, on: record)
                // A friend's code-protected party shows (without its
                // frequency) so you can ask for the code; link-only and
                // invite-only stations show only to those let in.
                let shown =
                    verdict.decision == .allowed && record.visibility != .unlisted
                    || record.visibility == .code && verdict.decision != .banned
                guard shown else { continue }
                visible += try await directory.views(of: [record]).map { $0.seen(as: verdict.role) }
            }
            add("following-live", StationDirectory.busiestFirst(visible.filter(\.onAir)))
            add("following-quiet", visible.filter { !$0.onAir })
        }
        // Public stations on the air under "discover"; then, for everyone,
        // the quiet public ones in their own section, so a new user's dial
        // is never just their own station and a quiet one is never
        // reported as on the air.
        let everyone = try await directory.list().map { $0.seen(as: .listener) }
        add("discover", everyone.filter(\.onAir))
        add("quiet", everyone.filter { !$0.onAir })
        return DialView(sections: sections)
    }

    // MARK: Helpers

    private func signedInUser(_ context: AppRequestContext) throws -> PersonRecord {
        guard let person = context.caller.person, person.kind == .user else {
            throw APIError(.unauthorized, code: .signInRequired, "Sign up or log in to follow people.")
        }
        return person
    }

    /// The user named by `{id}`; guests have no profile.
    private func user(_ context: AppRequestContext) async throws -> PersonRecord {
        let id = try Validation.personID(try context.id("id"))
        guard let person = try await people.person(id: id), person.kind == .user else {
            throw APIError.notFound("No one with id \(id).")
        }
        return person
    }

    private func profile(of person: PersonRecord, for caller: Caller) async throws -> ProfileView {
        let counts = try await people.followCounts(of: person.id)
        let youFollow = try await caller.personID.asyncMap { try await people.isFollowing($0, person.id) } ?? false
        return ProfileView(
            person: try await views(of: [person])[0], followers: counts.followers, following: counts.following,
            youFollow: youFollow)
    }

    private func views(of persons: [PersonRecord]) async throws -> [PersonView] {
        let owned = try await access.stations(ownedBy: Set(persons.map(\.id))).filter(\.personal)
        var stationOf: [String: StationID] = [:]
        for record in owned { if let owner = record.ownerID { stationOf[owner] = record.id } }
        return persons.map { PersonView($0, stationID: stationOf[$0.id]) }
    }
}

extension Optional {
    fileprivate func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
