/// Who decides what a station plays. The owner may change it at any time;
/// the robot DJ fills in whatever nobody lined up, in every mode.
public enum ProgrammingMode: String, Sendable, Codable, CaseIterable, Equatable {
    /// The DJ (the owner or a co-DJ) decides: the station as it always was.
    case dj
    /// The party (seed 001): listeners request and vote, the host overrides.
    case requests
    /// The democracy (seed 004): ballots elect the next song.
    case lobby
}
