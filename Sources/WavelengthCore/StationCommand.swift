/// An edit a DJ asks for. Each is applied once, under a client-chosen id.
public enum StationCommand: Sendable, Equatable {
    /// Add a track at the end of the timeline.
    case append(trackID: TrackID)
    /// Add a track as "Up Next".
    case queueNext(trackID: TrackID)
    /// Take an upcoming entry off the timeline.
    case remove(entryID: EntryID)
    /// Cut the current entry now. `entryID`, when given, must be the current one.
    case skip(entryID: EntryID?)
    /// Move an upcoming entry to a position among the upcoming ones (0 = next).
    case move(entryID: EntryID, toIndex: Int)
    /// Stop time for everyone: the current entry freezes where it is.
    case pause
    /// Start again: the timeline shifts by how long the pause lasted.
    case resume
    /// Jump within the current entry's track to `positionMs`.
    case seek(positionMs: Int64)

    // The party's commands (requests mode). Listeners send them too.

    /// Ask for a track; asking for one already requested is an upvote.
    case request(trackID: TrackID)
    /// Vote on a waiting request; nil takes the vote back.
    case vote(requestID: RequestID, vote: Vote?)
    /// Take back your own request (the host may take back any).
    case withdraw(requestID: RequestID)
    /// The host puts a request at a place in the order (0 = next).
    case moveRequest(requestID: RequestID, toIndex: Int)
    /// The host refuses a request, and its track for the rest of the party.
    case vetoRequest(requestID: RequestID)
    /// The host plays a request now, cutting the current song.
    case playRequestNow(requestID: RequestID)
    /// The host lifts a veto: the track may be asked for and picked again.
    case liftVeto(trackID: TrackID)
    /// A listener votes to skip the entry that plays.
    case voteSkip(entryID: EntryID)
    /// Thumbs up or down on the entry that plays (nil takes it back), in
    /// every mode.
    case thumb(entryID: EntryID, up: Bool?)

    // The lobby's commands. (`request` is a suggestion for the next ballot there.)

    /// Vote for a candidate on the open ballot; a second vote replaces the first.
    case ballotVote(ballotID: String, trackID: TrackID)
    /// The host decides the ballot: it closes with this candidate as the winner.
    case elect(ballotID: String, trackID: TrackID)

    // The room's level (when the host lets the room vote it).

    /// Vote the station's level up or down (nil takes the vote back).
    case volumeVote(up: Bool?)
    /// The host sets the level, in dB from the loudness target.
    case setVolume(levelDb: Double)

    public var op: String {
        switch self {
        case .append: "append"
        case .queueNext: "queueNext"
        case .remove: "remove"
        case .skip: "skip"
        case .move: "move"
        case .pause: "pause"
        case .resume: "resume"
        case .seek: "seek"
        case .request: "request"
        case .vote: "vote"
        case .withdraw: "withdraw"
        case .moveRequest: "moveRequest"
        case .vetoRequest: "vetoRequest"
        case .playRequestNow: "playRequestNow"
        case .liftVeto: "liftVeto"
        case .voteSkip: "voteSkip"
        case .thumb: "thumb"
        case .ballotVote: "ballotVote"
        case .elect: "elect"
        case .volumeVote: "volumeVote"
        case .setVolume: "setVolume"
        }
    }

    /// What the command asks of the station, for the authorization table:
    /// the DJ's timeline edits, or one of the party's operations.
    public var operation: StationOperation {
        switch self {
        case .append, .queueNext, .remove, .skip, .move, .pause, .resume, .seek: .command
        case .request, .withdraw: .request
        case .vote, .voteSkip, .thumb, .ballotVote, .volumeVote: .vote
        case .moveRequest, .vetoRequest, .playRequestNow, .liftVeto, .elect, .setVolume: .arrangeRequests
        }
    }

    /// The track a command names, which the server looks up before applying it.
    public var trackID: TrackID? {
        switch self {
        case .append(let trackID), .queueNext(let trackID), .request(let trackID), .elect(_, let trackID): trackID
        default: nil
        }
    }
}

extension StationCommand: Codable {
    private enum CodingKeys: String, CodingKey {
        case op, trackID, entryID, toIndex, positionMs, requestID, vote, up, ballotID, levelDb
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let op = try container.decode(String.self, forKey: .op)
        switch op {
        case "append": self = .append(trackID: try container.decode(String.self, forKey: .trackID))
        case "queueNext": self = .queueNext(trackID: try container.decode(String.self, forKey: .trackID))
        case "remove": self = .remove(entryID: try container.decode(String.self, forKey: .entryID))
        case "skip": self = .skip(entryID: try container.decodeIfPresent(String.self, forKey: .entryID))
        case "move":
            self = .move(
                entryID: try container.decode(String.self, forKey: .entryID),
                toIndex: try container.decode(Int.self, forKey: .toIndex))
        case "pause": self = .pause
        case "resume": self = .resume
        case "seek": self = .seek(positionMs: try container.decode(Int64.self, forKey: .positionMs))
        case "request": self = .request(trackID: try container.decode(String.self, forKey: .trackID))
        case "vote":
            let vote = try container.decodeIfPresent(String.self, forKey: .vote)
            guard vote == nil || vote == "none" || Vote(rawValue: vote!) != nil else {
                throw DecodingError.dataCorruptedError(
                    forKey: .vote, in: container, debugDescription: "A vote is up, down or none.")
            }
            self = .vote(
                requestID: try container.decode(String.self, forKey: .requestID), vote: vote.flatMap(Vote.init(rawValue:)))
        case "withdraw": self = .withdraw(requestID: try container.decode(String.self, forKey: .requestID))
        case "moveRequest":
            self = .moveRequest(
                requestID: try container.decode(String.self, forKey: .requestID),
                toIndex: try container.decode(Int.self, forKey: .toIndex))
        case "vetoRequest": self = .vetoRequest(requestID: try container.decode(String.self, forKey: .requestID))
        case "playRequestNow": self = .playRequestNow(requestID: try container.decode(String.self, forKey: .requestID))
        case "liftVeto": self = .liftVeto(trackID: try container.decode(String.self, forKey: .trackID))
        case "voteSkip": self = .voteSkip(entryID: try container.decode(String.self, forKey: .entryID))
        case "ballotVote":
            self = .ballotVote(
                ballotID: try container.decode(String.self, forKey: .ballotID),
                trackID: try container.decode(String.self, forKey: .trackID))
        case "elect":
            self = .elect(
                ballotID: try container.decode(String.self, forKey: .ballotID),
                trackID: try container.decode(String.self, forKey: .trackID))
        case "thumb":
            self = .thumb(
                entryID: try container.decode(String.self, forKey: .entryID),
                up: try container.decodeIfPresent(Bool.self, forKey: .up))
        case "volumeVote": self = .volumeVote(up: try container.decodeIfPresent(Bool.self, forKey: .up))
        case "setVolume":
            let level = try container.decode(Double.self, forKey: .levelDb)
            guard level.isFinite else {
                throw DecodingError.dataCorruptedError(
                    forKey: .levelDb, in: container, debugDescription: "A level is a number of dB.")
            }
            self = .setVolume(levelDb: level)
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .op, in: container,
                debugDescription:
                    "Unknown op '\(op.prefix(40))'; expected append, queueNext, remove, skip, move, pause, resume, seek, "
                    + "request, vote, withdraw, moveRequest, vetoRequest, playRequestNow, liftVeto, voteSkip, thumb, ballotVote, "
                    + "elect, "
                    + "volumeVote or setVolume.")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(op, forKey: .op)
        switch self {
        case .append(let trackID), .queueNext(let trackID):
            try container.encode(trackID, forKey: .trackID)
        case .remove(let entryID):
            try container.encode(entryID, forKey: .entryID)
        case .skip(let entryID):
            try container.encodeIfPresent(entryID, forKey: .entryID)
        case .move(let entryID, let toIndex):
            try container.encode(entryID, forKey: .entryID)
            try container.encode(toIndex, forKey: .toIndex)
        case .pause, .resume:
            break
        case .seek(let positionMs):
            try container.encode(positionMs, forKey: .positionMs)
        case .request(let trackID), .liftVeto(let trackID):
            try container.encode(trackID, forKey: .trackID)
        case .vote(let requestID, let vote):
            try container.encode(requestID, forKey: .requestID)
            try container.encode(vote?.rawValue ?? "none", forKey: .vote)
        case .withdraw(let requestID), .vetoRequest(let requestID), .playRequestNow(let requestID):
            try container.encode(requestID, forKey: .requestID)
        case .moveRequest(let requestID, let toIndex):
            try container.encode(requestID, forKey: .requestID)
            try container.encode(toIndex, forKey: .toIndex)
        case .voteSkip(let entryID):
            try container.encode(entryID, forKey: .entryID)
        case .ballotVote(let ballotID, let trackID), .elect(let ballotID, let trackID):
            try container.encode(ballotID, forKey: .ballotID)
            try container.encode(trackID, forKey: .trackID)
        case .thumb(let entryID, let up):
            try container.encode(entryID, forKey: .entryID)
            try container.encodeIfPresent(up, forKey: .up)
        case .volumeVote(let up):
            try container.encodeIfPresent(up, forKey: .up)
        case .setVolume(let levelDb):
            try container.encode(levelDb, forKey: .levelDb)
        }
    }
}
