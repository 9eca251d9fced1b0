/// What may play on a station, asked the same way by everyone who picks a
/// song: the robot, a guest's request, a lobby's suggestion and its ballot.
///
/// Built fresh from the machine's state for each event (it holds no state of
/// its own), so a veto, a new setting or a new request counts at once for
/// every path. The host's own DJ picks, and a request the host plays at
/// once ("play now"), are the host's override and don't ask about repeats.
public struct StationRules: Sendable {
    public var mode: ProgrammingMode
    public var settings: RequestSettings
    /// The robot as the server configured it.
    public var robot: RobotDJ
    /// Tracks the host vetoed: they don't play until the host lifts the veto.
    public var vetoed: Set<TrackID>
    /// Tracks asked for that wait their turn in the queue.
    public var waiting: Set<TrackID>

    public init(mode: ProgrammingMode, settings: RequestSettings, robot: RobotDJ, vetoed: Set<TrackID>, waiting: Set<TrackID>) {
        self.mode = mode
        self.settings = settings
        self.robot = robot
        self.vetoed = vetoed
        self.waiting = waiting
    }

    /// The robot's pool and fallback with vetoed tracks taken out.
    public func robotInputs(_ inputs: RobotInputs) -> RobotInputs {
        guard !vetoed.isEmpty else { return inputs }
        var allowed = inputs
        allowed.pool = inputs.pool.filter { !vetoed.contains($0.id) }
        allowed.fallback = inputs.fallback.filter { !vetoed.contains($0.id) }
        return allowed
    }

    /// How many songs may play: the pool the robot draws from, less vetoes.
    public func choices(_ inputs: RobotInputs) -> Int {
        let allowed = robotInputs(inputs)
        return robot.effectivePool(allowed.pool, fallback: allowed.fallback).count { $0.duration > 0 }
    }

    /// The repeat rule for requests, suggestions and ballots.
    public func repeats(_ inputs: RobotInputs) -> RepeatRule {
        RepeatRule(within: settings.noRepeatWithin, choices: choices(inputs))
    }

    /// The robot DJ as this station's rules shape it: its window bent the
    /// same way as everyone's (and never shorter than the room's rule while
    /// the room picks too), leaving waiting requests to the queue.
    public func robotDJ(_ inputs: RobotInputs) -> RobotDJ {
        var shaped = robot
        let within = mode == .dj ? robot.repeatWindow : max(robot.repeatWindow, settings.noRepeatWithin)
        shaped.repeatWindow = RepeatRule.bent(within, choices: choices(inputs))
        shaped.avoiding = mode == .requests ? waiting : []
        return shaped
    }

    /// Whether a guest may ask for `trackID` (a request, or a lobby's
    /// suggestion): not vetoed, from the host's playlist when the host
    /// limits requests to it, not too long, not played too recently.
    public func mayAsk(
        for track: PoolTrack, inputs: RobotInputs, latestPlays: [TrackID]
    ) throws(RequestError) {
        guard !vetoed.contains(track.id) else { throw .vetoed }
        if settings.poolOnly {
            guard !inputs.playlist.isEmpty else { throw .noPlaylist }
            guard inputs.playlist.contains(track.id) else { throw .notAvailable }
        }
        if let maxMillis = settings.maxTrackMillis, track.duration > maxMillis { throw .tooLong(maxMillis: maxMillis) }
        let rule = repeats(inputs)
        guard rule.allows(track.id, latestPlays: latestPlays) else { throw .playedRecently(within: rule.window) }
    }

    /// Whether a ballot may offer `trackID`, given the repeat rule (from
    /// `repeats`, worked out once per ballot) and the latest plays (newest first).
    public func mayOffer(_ trackID: TrackID, repeats: RepeatRule, inputs: RobotInputs, latestPlays: [TrackID]) -> Bool {
        guard !vetoed.contains(trackID) else { return false }
        if settings.poolOnly, !inputs.playlist.isEmpty, !inputs.playlist.contains(trackID) {
            return false
        }
        return repeats.allows(trackID, latestPlays: latestPlays)
    }
}
