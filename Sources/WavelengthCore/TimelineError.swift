/// Why an edit to a timeline was refused. Each case maps to a 4xx answer.
public enum TimelineError: Error, Sendable, Equatable, CustomStringConvertible {
    case unknownEntry(EntryID)
    case alreadyPlayed(EntryID)
    case entryIsPlaying(EntryID)
    case nothingPlaying
    case notCurrent(expected: EntryID)
    case indexOutOfRange(Int, count: Int)
    case unknownTrack(TrackID)
    case timelineFull(limit: Int)
    case positionOutOfRange(Int64, length: Int64)
    case paused
    case notPaused
    /// Pause and seek have no meaning for a live source's audio.
    case live
    /// The command is one of the party's, not a timeline edit.
    case notAnEdit(String)

    public var description: String {
        switch self {
        case .unknownEntry(let id): "No upcoming entry with id \(id)."
        case .alreadyPlayed(let id): "Entry \(id) has already played."
        case .entryIsPlaying(let id): "Entry \(id) is playing now; skip it instead."
        case .nothingPlaying: "Nothing is playing on this station."
        case .notCurrent(let id): "Entry \(id) is not the one playing now."
        case .indexOutOfRange(let index, let count): "Index \(index) is outside the \(count) upcoming entries."
        case .unknownTrack(let id): "No track with id \(id) in the library."
        case .timelineFull(let limit): "The timeline already holds \(limit) upcoming entries."
        case .positionOutOfRange(let position, let length): "Position \(position) ms is outside the track (0–\(length) ms)."
        case .paused: "The station is paused; resume it first."
        case .notPaused: "The station is not paused."
        case .live: "A live show is on the air: it can't be paused or seeked (skip it to take it off the air)."
        case .notAnEdit(let op): "\(op) is not a timeline edit."
        }
    }
}
