/// Why a request, a vote or a host's change to the queue was refused. Each
/// changes nothing; the server maps them to HTTP and WebSocket error codes.
public enum RequestError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The station isn't taking requests or suggestions (its mode is `dj`).
    case notRequestsMode
    /// Requests come from the host's playlist, and this track isn't in it.
    case notAvailable
    /// Requests come from the host's playlist, and the host hasn't chosen one.
    case noPlaylist
    /// The track is already lined up to play next.
    case alreadyScheduled
    /// Only someone the station knows (signed in or a named guest) may
    /// request and vote, so one person can't vote twice.
    case needsName
    /// Too many requests, votes or thumbs from one person in a short time.
    case tooFast
    /// The host has turned requests off.
    case closed
    /// The person already has `limit` requests waiting.
    case tooManyPending(limit: Int)
    /// The track is longer than the host allows.
    case tooLong(maxMillis: Int64)
    /// The track played within the last `within` plays.
    case playedRecently(within: Int)
    /// The host vetoed this track.
    case vetoed
    /// The host lifted a veto that isn't there.
    case notVetoed
    /// The queue holds `RequestQueue.maxPending` requests already.
    case queueFull
    /// No waiting request has this id (it played, was withdrawn or vetoed).
    case unknownRequest
    /// Only the requester (or the host) may withdraw a request.
    case notYours
    case invalidSettings(String)
    /// Ballots are only held in lobby mode.
    case notLobbyMode
    /// No ballot is open (the song is too short, or it just changed).
    case noBallot
    /// The ballot closed: its winner is being lined up.
    case ballotClosed
    /// That song isn't on this ballot.
    case notACandidate
    /// The host hasn't let the room vote the level.
    case volumeVotingOff
    /// A block stands between the person and the station's owner: their
    /// requests and votes don't reach the owner's party.
    case blocked

    public var description: String {
        switch self {
        case .notRequestsMode: "This station isn't taking requests right now."
        case .notAvailable: "That song isn't on the host's playlist."
        case .noPlaylist: "Requests are open only from the host's playlist, and the host hasn't chosen one yet."
        case .alreadyScheduled: "That song is already up next."
        case .needsName: "Join as a guest or sign in to request and vote."
        case .tooFast: "That's a lot of votes at once: wait a few seconds and try again."
        case .closed: "The host has closed requests for now."
        case .tooManyPending(let limit):
            limit == 1
                ? "You already have a request waiting; wait for it to play."
                : "You already have \(limit) requests waiting; wait for one to play."
        case .tooLong(let maxMillis): "That song is too long: the host allows up to \(maxMillis / 60_000) minutes."
        case .playedRecently(let within):
            within == 1 ? "That song is playing now; pick another." : "That song played in the last \(within) songs; pick another."
        case .vetoed: "The host said no to that song."
        case .notVetoed: "That song isn't vetoed."
        case .queueFull: "The request queue is full."
        case .unknownRequest: "That request isn't waiting any more (it played, or was taken back)."
        case .notYours: "Only the person who asked (or the host) can take a request back."
        case .invalidSettings(let message): message
        case .notLobbyMode: "This station isn't a lobby right now."
        case .noBallot: "There's no vote open right now: the next one opens when the next song starts."
        case .ballotClosed: "That vote has closed: the winner is being lined up."
        case .notACandidate: "That song isn't on this ballot."
        case .volumeVotingOff: "The host hasn't turned on volume voting here."
        case .blocked: "Your requests and votes can't reach this station's host."
        }
    }
}
