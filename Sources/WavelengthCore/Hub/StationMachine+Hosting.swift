/// A show's hosts are co-DJs while their show airs (issue 13): a seat
/// carries the window of the episode its person hosts now or next, and the
/// machine changes the role at the window's edges with one timer for the
/// station, the earliest edge of any seat's window.
public struct HostingWindow: Sendable, Equatable {
    public var start: EpochMillis
    public var end: EpochMillis
    /// The role the person has apart from hosting.
    public var baseRole: StationRole

    public init(start: EpochMillis, end: EpochMillis, baseRole: StationRole) {
        self.start = start
        self.end = end
        self.baseRole = baseRole
    }

    /// The role inside or outside the window at `now`.
    public func role(at now: EpochMillis) -> StationRole {
        start <= now && now < end ? max(.codj, baseRole) : baseRole
    }
}

extension StationMachine {
    /// Gives each hosting seat the role its window says at `now`, lets go
    /// of windows that ended, and sets the timer for the next edge.
    mutating func hostingChanged(at now: EpochMillis) -> [HubAction] {
        var actions: [HubAction] = []
        var changes: [String: StationRole] = [:]
        for index in connections.indices {
            guard let window = connections[index].seat.hosting, let person = connections[index].seat.personID else {
                continue
            }
            let role = window.role(at: now)
            if connections[index].seat.role != role { changes[person] = role }
            if now >= window.end { connections[index].seat.hosting = nil }
        }
        for (person, role) in changes.sorted(by: { $0.key < $1.key }) {
            actions += applyRole(personID: person, role: role, at: now)
        }
        let edges = connections.compactMap { connection -> EpochMillis? in
            guard let window = connection.seat.hosting else { return nil }
            return window.start > now ? window.start : window.end
        }
        if let next = edges.min() {
            if timers[.hosting] != next { actions += startTimer(.hosting, at: next) }
        } else {
            actions += cancelTimer(.hosting)
        }
        return actions
    }
}
