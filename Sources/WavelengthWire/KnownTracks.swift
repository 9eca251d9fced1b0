/// The tracks a client holds, by id: those of the last timeline window it
/// took. An `update` names such a track by id alone (`"track":{"id":"t…"}`)
/// to clients that speak protocol version 2, so an update to a long Up Next
/// carries the new entry's track and not every track again. (A 50-entry
/// window was 30 KB per listener per update; 10,000 listeners made 300 MB.)
///
/// Encoding: a `JSONEncoder` whose `userInfo[KnownTracks.key]` holds the
/// tracks every receiver holds writes those (when unchanged) by id.
/// Decoding: a `JSONDecoder` whose `userInfo[KnownTracks.key]` holds the
/// client's own fills them back in. A track named by id that the client
/// does not hold fails the decoding (`isUnknownTrack`): the client asks for
/// a snapshot (`resync`).
public struct KnownTracks: Sendable, Equatable {
    public static let key = CodingUserInfoKey(rawValue: "wavelength.knownTracks")!

    public private(set) var tracks: [TrackID: TrackSummary] = [:]

    public init() {}

    /// The tracks of a window, in its order (current, Up Next, history);
    /// where one id appears twice, the later entry's track stands, exactly
    /// as the web app's cache keeps it.
    public init(_ window: TimelineWindow?) {
        guard let window else { return }
        for entry in [window.current].compactMap({ $0 }) + window.upNext + window.history {
            tracks[entry.track.id] = entry.track
        }
    }

    public subscript(id: TrackID) -> TrackSummary? { tracks[id] }

    /// Keeps only the tracks `other` holds alike: what two sets of clients
    /// both hold.
    public func shared(with other: KnownTracks) -> KnownTracks {
        var both = KnownTracks()
        both.tracks = tracks.filter { other.tracks[$0.key] == $0.value }
        return both
    }

    /// Whether decoding failed only because a track was named by id that
    /// the client does not hold.
    public static func isUnknownTrack(_ error: any Error) -> Bool {
        guard case DecodingError.dataCorrupted(let context) = error else { return false }
        return context.debugDescription.hasPrefix(unknownPrefix)
    }

    static let unknownPrefix = "Unknown track named by id"
}

extension TrackSummary: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, title, format, audioURL, artworkURL, gainDb, headroomDb, tempo
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let id = try c.decode(TrackID.self, forKey: .id)
        guard c.contains(.title) else {
            // Named by id: the client holds it (see `KnownTracks`).
            guard let known = (decoder.userInfo[KnownTracks.key] as? KnownTracks)?[id] else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: c.codingPath, debugDescription: "\(KnownTracks.unknownPrefix) (\(id.prefix(40)))"))
            }
            self = known
            return
        }
        self.init(
            id: id, tags: try TrackTags(from: decoder), format: try c.decode(String.self, forKey: .format),
            audioURL: try c.decode(String.self, forKey: .audioURL),
            artworkURL: try c.decodeIfPresent(String.self, forKey: .artworkURL),
            gainDb: try c.decodeIfPresent(Double.self, forKey: .gainDb),
            headroomDb: try c.decodeIfPresent(Double.self, forKey: .headroomDb),
            tempo: try c.decodeIfPresent(Double.self, forKey: .tempo))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        if let known = encoder.userInfo[KnownTracks.key] as? KnownTracks, known[id] == self { return }
        try tags.encode(to: encoder)
        try c.encode(format, forKey: .format)
        try c.encode(audioURL, forKey: .audioURL)
        try c.encodeIfPresent(artworkURL, forKey: .artworkURL)
        try c.encodeIfPresent(gainDb, forKey: .gainDb)
        try c.encodeIfPresent(headroomDb, forKey: .headroomDb)
        try c.encodeIfPresent(tempo, forKey: .tempo)
    }
}
