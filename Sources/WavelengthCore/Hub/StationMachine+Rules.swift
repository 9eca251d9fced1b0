/// Every path that puts a song on the air asks `StationRules`: the robot
/// filling the schedule or waking the station, a guest's request, a lobby's
/// suggestion and its ballot. These are the machine's ways in.
extension StationMachine {
    /// The station's rules as they stand now.
    public var rules: StationRules {
        StationRules(
            mode: party.mode, settings: party.settings, robot: settings.robot, vetoed: party.queue.vetoed,
            waiting: Set(party.queue.pending.lazy.filter { !$0.isLinedUp }.map(\.trackID)))
    }

    /// Whether a seat runs the station (the owner and co-DJs, a show's host
    /// on the air): they see the counts, the vetoes and who asked.
    public func isStaff(_ seat: Seat) -> Bool {
        seat.role >= .codj
    }

    /// Whether a seat sees vote counts: the staff always, the room only
    /// when the host shows them (seed 001 hides them by default).
    public func showsVoteCounts(to seat: Seat) -> Bool {
        isStaff(seat) || party.settings.showVoteCounts
    }

    /// Tops `state` up to the robot's horizon, as the rules allow.
    func robotFill(
        _ state: inout StationState, at now: EpochMillis, robot: RobotInputs, using rng: inout some RandomNumberGenerator
    ) -> StationState.Outcome {
        let rules = rules
        let allowed = rules.robotInputs(robot)
        return state.fill(
            at: now, robot: rules.robotDJ(robot), pool: allowed.pool, fallback: allowed.fallback,
            artistOf: { robot.artists[$0] }, taste: taste, using: &rng)
    }

    /// Tops the station up to the robot's horizon, as the rules allow.
    mutating func robotFill(at now: EpochMillis, robot: RobotInputs, using rng: inout some RandomNumberGenerator)
        -> StationState.Outcome
    {
        var state = station
        let outcome = robotFill(&state, at: now, robot: robot, using: &rng)
        station = state
        return outcome
    }

    /// Wakes a quiet station and tops it up, as the rules allow.
    mutating func robotWake(at now: EpochMillis, robot: RobotInputs, using rng: inout some RandomNumberGenerator)
        -> StationState.Outcome
    {
        let rules = rules
        let allowed = rules.robotInputs(robot)
        var outcome = station.wake(
            at: now, robot: rules.robotDJ(robot), pool: allowed.pool, fallback: allowed.fallback,
            artistOf: { robot.artists[$0] }, taste: taste, using: &rng)
        outcome.merge(robotFill(at: now, robot: robot, using: &rng))
        return outcome
    }
}
