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
        }
    }
}

extension StationCommand: Codable {
    private enum CodingKeys: String, CodingKey {
        case op, trackID, entryID, toIndex, positionMs
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
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .op, in: container,
                debugDescription:
                    "Unknown op '\(op.prefix(40))'; expected append, queueNext, remove, skip, move, pause, resume or seek.")
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
        }
    }
}
