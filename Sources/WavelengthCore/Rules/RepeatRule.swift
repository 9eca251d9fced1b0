/// "No repeat within N plays", bent to the size of what may play, the same
/// way for everyone who picks a song: the robot, requests and ballots.
///
/// A host's rule of 10 on an 8-song library can't hold: asked as written it
/// blocks every song, so requests were refused, ballots died out, and the
/// robot (which bent its own window another way) repeated at will. The rule
/// instead keeps two songs free of it: with `choices` songs that may play,
/// the window is at most `choices - 2`.
public struct RepeatRule: Sendable, Equatable {
    /// The window the host asked for.
    public var within: Int
    /// How many songs may play (the pool, less vetoed songs).
    public var choices: Int

    public init(within: Int, choices: Int) {
        self.within = within
        self.choices = choices
    }

    /// The window in force: how many of the latest plays a song must not be among.
    public var window: Int { Self.bent(within, choices: choices) }

    /// `within`, bent so that at least two of `choices` songs stay free of it.
    public static func bent(_ within: Int, choices: Int) -> Int {
        max(0, min(within, choices - 2))
    }

    /// Whether `trackID` may play next, given the latest plays (newest first).
    public func allows(_ trackID: TrackID, latestPlays: [TrackID]) -> Bool {
        !latestPlays.prefix(window).contains(trackID)
    }
}
