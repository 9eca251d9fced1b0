/// Who put an entry on the timeline.
public enum EntrySource: String, Sendable, Codable, Equatable {
    /// A person at the controls.
    case dj
    /// The robot DJ filling the horizon from the song pool.
    case robot
    /// A listener's request, scheduled from the party's queue.
    case request
    /// The winner of the lobby's ballot.
    case elected
    /// A live source on the air (broadcast software or a browser): its
    /// audio is the source's relay, not a library file.
    case live
    /// A song recognised in a live show's audio, kept in history (never
    /// on the timeline: the show's own entry is what plays).
    case heard
    /// A voice clip between songs (a DJ's, or a guest's the host approved).
    case voice
}

/// One scheduled play of a track, at an absolute instant on the server clock.
public struct TimelineEntry: Sendable, Codable, Equatable, Identifiable {
    public var id: EntryID
    public var trackID: TrackID
    /// When the entry starts playing.
    public var start: EpochMillis
    /// How long it plays. Shorter than the track when it was skipped.
    public var duration: Int64
    /// Where in the audio file playback begins (non-zero after a resume, later).
    public var offset: Int64
    public var source: EntrySource
    /// Why the robot picked it, in one line ("Because the room liked …").
    public var why: String?

    public init(
        id: EntryID, trackID: TrackID, start: EpochMillis, duration: Int64,
        offset: Int64 = 0, source: EntrySource, why: String? = nil
    ) {
        self.id = id
        self.trackID = trackID
        self.start = start
        self.duration = duration
        self.offset = offset
        self.source = source
        self.why = why
    }

    /// The seed's "expiration time": start plus duration.
    public var expiration: EpochMillis { start + duration }

    /// Whether it is a song (a voice clip or a live show is not): what the
    /// repeat rule counts.
    public var isSong: Bool { source != .voice && source != .live }

    public func isPlaying(at now: EpochMillis) -> Bool {
        start <= now && now < expiration
    }
}

/// A track the robot DJ may pick, with what it needs to know to pick well:
/// the artist (never twice in a row) and the tags its taste model learns from.
public struct PoolTrack: Sendable, Equatable, Hashable {
    public var id: TrackID
    public var artist: String
    public var duration: Int64
    public var album: String
    public var genre: String?
    public var year: Int?
    /// Beats per minute and onsets per second, once the audio analysis
    /// measured them.
    public var tempo: Double?
    public var onsetRate: Double?
    /// EBU R128 integrated loudness (LUFS) and loudness range (LU), from the
    /// same analysis: how hard a track was mastered, and how much it moves
    /// between quiet and loud.
    public var loudness: Double?
    public var loudnessRange: Double?
    /// Set when people who saved a song this room likes saved this one too
    /// (the robot's inputs mark it; never stored).
    public var coLikedWith: CoLike?
    /// An upload its uploader hasn't shared: only their own stations' robot
    /// picks it. Nil for everyone's music.
    public var privateTo: String?

    /// The one rule for where a track may play, asked by the robot, the
    /// DJ's commands, requests and the pool alike: everyone's music on any
    /// station, an unshared upload only on its uploader's own (whoever
    /// learned its id).
    public func mayPlay(onStationOf owner: String?) -> Bool {
        privateTo == nil || privateTo == owner
    }

    public init(
        id: TrackID, artist: String, duration: Int64, album: String = "", genre: String? = nil, year: Int? = nil,
        tempo: Double? = nil, onsetRate: Double? = nil, loudness: Double? = nil, loudnessRange: Double? = nil,
        privateTo: String? = nil
    ) {
        self.privateTo = privateTo
        self.loudness = loudness
        self.loudnessRange = loudnessRange
        self.id = id
        self.artist = artist
        self.duration = duration
        self.album = album
        self.genre = genre
        self.year = year
        self.tempo = tempo
        self.onsetRate = onsetRate
    }
}
