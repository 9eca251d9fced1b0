/// What a host allows at a party (seed 001), each with a default that suits
/// a room of friends.
public struct RequestSettings: Sendable, Equatable, Codable {
    /// Whether listeners may request at all.
    public var open: Bool
    /// Whether requests must come from the station's song pool (the host's
    /// playlist) rather than the whole library.
    public var poolOnly: Bool
    /// The most requests one person may have waiting at once.
    public var maxPendingPerPerson: Int
    /// The longest track that may be requested; nil for any length.
    public var maxTrackMillis: Int64?
    /// A track played in the last this-many plays can't be requested again.
    public var noRepeatWithin: Int
    /// Whether listeners see vote counts. Off by default, as in seed 001, so
    /// a host reordering the queue does not look strange.
    public var showVoteCounts: Bool
    /// How many listeners it takes to skip the current song.
    public var skip: SkipThreshold
    /// The lobby's type (seed 004), whose preset set the fields below.
    public var kind: LobbyKind
    /// Whether the room has a chat (seed 004's switch): off, nothing is
    /// sent or kept.
    public var chat: Bool
    /// Whether guests (people with a name and no account) may post.
    public var guestChat: Bool
    /// Whether listeners may send voice clips (shout-outs, dedications) for
    /// the host to approve.
    public var guestClips: Bool
    /// Whether listeners see the words in sync.
    public var lyrics: Bool
    /// Whether listeners vote the station's level up and down.
    public var volumeVoting: Bool
    /// The loudness every track is brought to, in LUFS.
    public var loudnessTarget: Double

    public init(
        open: Bool = true, poolOnly: Bool = false, maxPendingPerPerson: Int = 3, maxTrackMillis: Int64? = 10 * 60_000,
        noRepeatWithin: Int = 10, showVoteCounts: Bool = false, skip: SkipThreshold = .automatic,
        kind: LobbyKind = .party, chat: Bool = true, lyrics: Bool = true, volumeVoting: Bool = false,
        loudnessTarget: Double = Loudness.defaultTarget, guestChat: Bool = true, guestClips: Bool = false
    ) {
        self.guestClips = guestClips
        self.kind = kind
        self.chat = chat
        self.guestChat = guestChat
        self.lyrics = lyrics
        self.volumeVoting = volumeVoting
        self.loudnessTarget = loudnessTarget
        self.open = open
        self.poolOnly = poolOnly
        self.maxPendingPerPerson = maxPendingPerPerson
        self.maxTrackMillis = maxTrackMillis
        self.noRepeatWithin = noRepeatWithin
        self.showVoteCounts = showVoteCounts
        self.skip = skip
    }

    public static let pendingPerPersonRange = 1...20
    public static let trackMillisRange: ClosedRange<Int64> = 30_000...(60 * 60_000)
    public static let noRepeatRange = 0...200

    /// Refuses settings outside the ranges a host can choose from.
    public func validated() throws(RequestError) -> RequestSettings {
        guard Self.pendingPerPersonRange.contains(maxPendingPerPerson) else {
            throw .invalidSettings("The most requests per person must be 1–20.")
        }
        if let maxTrackMillis, !Self.trackMillisRange.contains(maxTrackMillis) {
            throw .invalidSettings("The longest track must be between 30 seconds and 60 minutes.")
        }
        guard Self.noRepeatRange.contains(noRepeatWithin) else {
            throw .invalidSettings("No repeats within must be 0–200 plays.")
        }
        _ = try skip.validated()
        guard Loudness.targetRange.contains(loudnessTarget) else {
            throw .invalidSettings("The loudness target must be −24 to −8 LUFS.")
        }
        return self
    }
}

extension RequestSettings {
    private enum CodingKeys: String, CodingKey {
        case open, poolOnly, maxPendingPerPerson, maxTrackMillis, noRepeatWithin, showVoteCounts, skip
        case kind, chat, lyrics, volumeVoting, loudnessTarget, guestChat, guestClips
    }

    /// Decoding over these settings (in the decoder's `userInfo`) reads a
    /// change: a field left out keeps its value here, and a longest track
    /// of 0 means any length. `PartySettingsPatch` is applied this way.
    public static let changing = CodingUserInfoKey(rawValue: "RequestSettings.changing")!

    /// Settings saved before a field existed read as its default.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let changing = decoder.userInfo[Self.changing] as? RequestSettings
        let defaults = changing ?? RequestSettings()
        let maxTrackMillis: Int64? =
            if let changing {
                try c.decodeIfPresent(Int64.self, forKey: .maxTrackMillis).map { $0 == 0 ? nil : $0 } ?? changing.maxTrackMillis
            } else {
                // Saved settings leave "any length" out.
                try c.decodeIfPresent(Int64.self, forKey: .maxTrackMillis)
            }
        self.init(
            open: try c.decodeIfPresent(Bool.self, forKey: .open) ?? defaults.open,
            poolOnly: try c.decodeIfPresent(Bool.self, forKey: .poolOnly) ?? defaults.poolOnly,
            maxPendingPerPerson: try c.decodeIfPresent(Int.self, forKey: .maxPendingPerPerson)
                ?? defaults.maxPendingPerPerson,
            maxTrackMillis: maxTrackMillis,
            noRepeatWithin: try c.decodeIfPresent(Int.self, forKey: .noRepeatWithin) ?? defaults.noRepeatWithin,
            showVoteCounts: try c.decodeIfPresent(Bool.self, forKey: .showVoteCounts) ?? defaults.showVoteCounts,
            skip: try c.decodeIfPresent(SkipThreshold.self, forKey: .skip) ?? defaults.skip,
            kind: try c.decodeIfPresent(LobbyKind.self, forKey: .kind) ?? defaults.kind,
            chat: try c.decodeIfPresent(Bool.self, forKey: .chat) ?? defaults.chat,
            lyrics: try c.decodeIfPresent(Bool.self, forKey: .lyrics) ?? defaults.lyrics,
            volumeVoting: try c.decodeIfPresent(Bool.self, forKey: .volumeVoting) ?? defaults.volumeVoting,
            loudnessTarget: try c.decodeIfPresent(Double.self, forKey: .loudnessTarget) ?? defaults.loudnessTarget,
            guestChat: try c.decodeIfPresent(Bool.self, forKey: .guestChat) ?? defaults.guestChat,
            guestClips: try c.decodeIfPresent(Bool.self, forKey: .guestClips) ?? defaults.guestClips)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(open, forKey: .open)
        try c.encode(poolOnly, forKey: .poolOnly)
        try c.encode(maxPendingPerPerson, forKey: .maxPendingPerPerson)
        try c.encodeIfPresent(maxTrackMillis, forKey: .maxTrackMillis)
        try c.encode(noRepeatWithin, forKey: .noRepeatWithin)
        try c.encode(showVoteCounts, forKey: .showVoteCounts)
        try c.encode(skip, forKey: .skip)
        try c.encode(kind, forKey: .kind)
        try c.encode(chat, forKey: .chat)
        try c.encode(lyrics, forKey: .lyrics)
        try c.encode(volumeVoting, forKey: .volumeVoting)
        try c.encode(loudnessTarget, forKey: .loudnessTarget)
        try c.encode(guestChat, forKey: .guestChat)
        try c.encode(guestClips, forKey: .guestClips)
    }
}
