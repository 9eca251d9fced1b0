/// What the machine needs read from storage before an event, so the hub
/// asks instead of deciding: the robot's inputs (the library, the pool, the
/// host's playlist) and a moderation target's standing.
extension StationMachine {
    /// Whether a connection arriving now needs the robot's inputs: only the
    /// first, which wakes the station.
    public var arrivalNeedsRobot: Bool { connections.isEmpty }

    /// Whether a command needs the robot's inputs: while anyone listens (the
    /// robot may fill), and for a request or suggestion, judged against the
    /// pool and the host's playlist whether or not anyone listens.
    public func commandNeedsRobot(_ command: StationCommand) -> Bool {
        !connections.isEmpty || command.operation == .request
    }

    /// Whether new settings need the robot's inputs: a station becoming a
    /// lobby with people listening opens its first ballot at once.
    public func settingsNeedRobot(mode: ProgrammingMode) -> Bool {
        mode == .lobby && !connections.isEmpty
    }

    /// Whether a timer needs the robot's inputs when it fires.
    public static func timerNeedsRobot(_ timer: HubTimer) -> Bool {
        switch timer {
        case .tick, .ballot, .reactions: true
        case .promotion, .listenerCount, .audienceMinute, .hosting: false
        }
    }

    /// The person whose standing on the station a moderator's action needs
    /// (a mute of a valid length; `moderate` refuses the rest itself).
    public static func moderationTarget(_ action: ChatModeration) -> String? {
        guard case .mute(let personID, let minutes) = action, ChatRoom.muteMinutes.contains(minutes) else { return nil }
        return personID
    }

    /// Whether the station is on the air for the dial: awake, and listened to.
    public var isPlayingForSomeone: Bool { station.isOnAir && !connections.isEmpty }

    /// Whether `trackID` is on the timeline still to play, or playing.
    public func isScheduled(_ trackID: TrackID, at now: EpochMillis) -> Bool {
        let time = station.timelineTime(at: now)
        return station.timeline.entries.contains { $0.trackID == trackID && $0.expiration > time }
    }

    /// Whether anyone is connected: what the LAN and the audio cache are
    /// told (a station nobody listens to is announced as quiet).
    public var isListenedTo: Bool { !connections.isEmpty }

    /// New settings, and with them a lobby's first ballot when it becomes one
    /// (`robot` given when `settingsNeedRobot` said so).
    public mutating func settingsChanged(
        maxListeners: Int?, mode: ProgrammingMode, requests: RequestSettings, robot: RobotInputs?, at now: EpochMillis,
        using rng: inout some RandomNumberGenerator
    ) -> [HubAction] {
        settingsChanged(maxListeners: maxListeners, mode: mode, requests: requests)
            + (robot.map { openBallot(at: now, robot: $0, using: &rng) } ?? [])
    }
}
