/// The track id a live entry carries: `live:<station>:<person>`. A live
/// show is no library file, but history, the player and the stream still
/// need to know whose show it was and where its audio is, long after.
public enum LiveTrack {
    public static let prefix = "live:"

    public static func id(stationID: StationID, personID: String) -> TrackID {
        "\(prefix)\(stationID):\(personID)"
    }

    /// The station and person a live track id names; nil for any other id.
    public static func parse(_ id: TrackID) -> (stationID: StationID, personID: String)? {
        guard id.hasPrefix(prefix) else { return nil }
        let parts = id.dropFirst(prefix.count).split(separator: ":", maxSplits: 1)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
        return (String(parts[0]), String(parts[1]))
    }
}
