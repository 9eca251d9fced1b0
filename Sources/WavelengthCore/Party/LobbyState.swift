/// The lobby (seed 004): the ballot for the next song, listeners'
/// suggestions for the ballot after, and how much each person's vote counts.
///
/// The ballot for the song after the one playing opens when that song
/// starts and closes `prepareMillis` plus the commit lead before it ends,
/// so every device has the winner ready; the winner starts exactly when the
/// song ends. Credibility follows the room's reactions to the songs a person
/// backed (suggested, or voted for when they won).
public struct LobbyState: Sendable, Equatable {
    /// A listener's suggestion for the next ballot.
    public struct Suggestion: Sendable, Equatable, Codable {
        public var trackID: TrackID
        public var personID: String

        public init(trackID: TrackID, personID: String) {
            self.trackID = trackID
            self.personID = personID
        }
    }

    /// The ballot open now, or the last one until the next opens.
    public var ballot: Ballot?
    /// The winner of `ballot` once it closed.
    public var elected: TrackID?
    /// Suggestions waiting for a ballot: one per person, newest wins.
    public private(set) var suggestions: [Suggestion] = []
    /// Each person's standing with the room.
    public var credibility: [String: Credibility] = [:]
    /// Who backed each elected entry (voted for it or suggested it), for
    /// the room's reactions to reach them. Only the latest few are kept.
    public private(set) var backers: [EntryID: Set<String>] = [:]
    private var backedOrder: [EntryID] = []
    /// Ballots opened so far: the next ballot's id.
    public var serial = 0
    /// The station's level and the votes on it.
    public var volume = StationVolume()

    /// How long before the song ends a ballot closes, on top of the commit
    /// lead: the time every device needs to fetch and decode the winner.
    public static let prepareMillis: Int64 = 4000
    /// A song shorter than this much voting time gets no ballot: the robot's
    /// pick stands.
    public static let minimumVotingMillis: Int64 = 5000
    public static let maxSuggestions = 50
    static let maxBacked = 16
    /// People whose credibility is kept; past it the least known are dropped.
    public static let maxPeople = 5000

    public init(credibility: [String: Credibility] = [:]) {
        self.credibility = credibility
    }

    /// What storage keeps of the lobby besides credibility: the ballot with
    /// its votes (acknowledged votes survive a crash), the suggestions and
    /// who backed the last winners.
    public struct Saved: Sendable, Equatable, Codable {
        public var ballot: Ballot?
        public var elected: TrackID?
        public var suggestions: [Suggestion]
        public var backers: [EntryID: Set<String>]
        public var backedOrder: [EntryID]
        public var serial: Int
        /// Absent in lobbies saved before volume voting.
        public var volume: StationVolume?
    }

    public var saved: Saved {
        Saved(
            ballot: ballot, elected: elected, suggestions: suggestions, backers: backers, backedOrder: backedOrder,
            serial: serial, volume: volume)
    }

    public init(saved: Saved?, credibility: [String: Credibility]) {
        self.credibility = credibility
        guard let saved else { return }
        ballot = saved.ballot
        elected = saved.elected
        suggestions = Array(saved.suggestions.prefix(Self.maxSuggestions))
        backers = saved.backers
        backedOrder = saved.backedOrder
        serial = saved.serial
        volume = saved.volume ?? StationVolume()
    }

    public func weight(of person: String) -> Double {
        credibility[person]?.weight ?? 1
    }

    /// `person` suggests a track for the next ballot, replacing theirs.
    public mutating func suggest(_ trackID: TrackID, by person: String) throws(RequestError) {
        suggestions.removeAll { $0.personID == person }
        guard suggestions.count < Self.maxSuggestions else { throw .queueFull }
        suggestions.append(Suggestion(trackID: trackID, personID: person))
    }

    /// Suggestions go onto a ballot once; these were used.
    public mutating func consumeSuggestions(for tracks: Set<TrackID>) {
        suggestions.removeAll { tracks.contains($0.trackID) }
    }

    /// The winner was scheduled as `entryID`: its backers are remembered.
    public mutating func backed(_ entryID: EntryID, by people: Set<String>) {
        guard !people.isEmpty else { return }
        backers[entryID] = people
        backedOrder.append(entryID)
        while backedOrder.count > Self.maxBacked { backers[backedOrder.removeFirst()] = nil }
    }

    /// The room reacted to an entry: everyone who backed it (but the one
    /// reacting: you can't vouch for yourself) gains or loses standing.
    /// Returns who changed.
    public mutating func roomReacted(_ reaction: Credibility.Reaction, to entryID: EntryID, by reactor: String?) -> [String] {
        guard let people = backers[entryID] else { return [] }
        var changed: [String] = []
        for person in people.sorted() where person != reactor {
            credibility[person, default: Credibility()].record(reaction)
            changed.append(person)
        }
        trimCredibility()
        return changed
    }

    private mutating func trimCredibility() {
        guard credibility.count > Self.maxPeople else { return }
        let keep = credibility.sorted { a, b in
            let (ea, eb) = (a.value.thumbsUp + a.value.thumbsDown + a.value.skips, b.value.thumbsUp + b.value.thumbsDown + b.value.skips)
            return ea != eb ? ea > eb : a.key < b.key
        }.prefix(Self.maxPeople * 9 / 10)
        credibility = Dictionary(uniqueKeysWithValues: keep.map { ($0.key, $0.value) })
    }
}
