import Foundation
import WavelengthCore

/// One request as a listener sees it, from the moment it is made until it
/// starts playing.
public struct RequestView: Sendable, Codable, Equatable {
    public var id: RequestID
    public var track: TrackSummary
    /// The requester's person id, so a client can offer to take back its own.
    public var requesterID: String
    public var requesterName: String
    public var requestedAt: EpochMillis
    /// The host placed it (it plays before the rest, in the host's order).
    public var arranged: Bool
    /// It is on the timeline, the next of the room's songs to play; votes
    /// no longer move it.
    public var linedUp: Bool
    /// Vote counts: always for the host and co-DJs, for listeners only when
    /// the host shows them (seed 001 hides them by default).
    public var upvotes: Int?
    public var downvotes: Int?

    public init(
        id: RequestID, track: TrackSummary, requesterID: String, requesterName: String, requestedAt: EpochMillis,
        arranged: Bool,
        upvotes: Int?, downvotes: Int?, linedUp: Bool = false
    ) {
        self.linedUp = linedUp
        self.id = id
        self.track = track
        self.requesterID = requesterID
        self.requesterName = requesterName
        self.requestedAt = requestedAt
        self.arranged = arranged
        self.upvotes = upvotes
        self.downvotes = downvotes
    }
}

/// How far the room is from skipping the song that plays.
public struct SkipProgress: Sendable, Codable, Equatable {
    public var entryID: EntryID
    public var votes: Int
    public var needed: Int

    public init(entryID: EntryID, votes: Int, needed: Int) {
        self.entryID = entryID
        self.votes = votes
        self.needed = needed
    }
}

/// The party as one connection may see it: the mode, the host's rules, the
/// waiting requests in the order they will play, and the skip vote.
public struct PartyView: Sendable, Codable, Equatable {
    public var mode: ProgrammingMode
    public var settings: RequestSettings
    public var requests: [RequestView]
    public var skip: SkipProgress?
    /// This person's own votes, by request (only in the copy sent to them).
    public var myVotes: [RequestID: Vote]?
    /// The lobby's ballot for the next song (lobby mode only).
    public var ballot: BallotView?
    /// This person's standing in the lobby (only in the copy sent to them).
    public var standing: StandingView?
    /// The vote on the room's level (while the host allows volume voting).
    public var volume: VolumeView?
    /// The songs the host vetoed, which the host may lift (only in the copy
    /// sent to the host and co-DJs).
    public var vetoed: [TrackSummary]?

    public init(
        mode: ProgrammingMode, settings: RequestSettings, requests: [RequestView], skip: SkipProgress?,
        myVotes: [RequestID: Vote]? = nil, ballot: BallotView? = nil, standing: StandingView? = nil,
        volume: VolumeView? = nil, vetoed: [TrackSummary]? = nil
    ) {
        self.vetoed = vetoed
        self.volume = volume
        self.mode = mode
        self.settings = settings
        self.requests = requests
        self.skip = skip
        self.myVotes = myVotes
        self.ballot = ballot
        self.standing = standing
    }
}

/// The room's vote on the level: the votes each way among the people
/// listening, how many move it a step, and this person's own.
public struct VolumeView: Sendable, Codable, Equatable {
    public var levelDb: Double
    public var up: Int
    public var down: Int
    public var needed: Int
    /// "up" or "down" (only in the copy sent to that person).
    public var mine: StationVolume.Direction?
    public var canGoUp: Bool
    public var canGoDown: Bool

    public init(
        levelDb: Double, up: Int, down: Int, needed: Int, mine: StationVolume.Direction?, canGoUp: Bool,
        canGoDown: Bool
    ) {
        self.levelDb = levelDb
        self.up = up
        self.down = down
        self.needed = needed
        self.mine = mine
        self.canGoUp = canGoUp
        self.canGoDown = canGoDown
    }
}

/// The lobby's ballot for the song after the one playing.
public struct BallotView: Sendable, Codable, Equatable {
    public struct Candidate: Sendable, Codable, Equatable {
        public var track: TrackSummary
        /// How many listeners suggested it (0: the robot's recommendation).
        public var suggestions: Int
        /// The weighted votes for it: always for the host and co-DJs, for
        /// listeners only when the host shows counts.
        public var votes: Double?

        public init(track: TrackSummary, suggestions: Int, votes: Double?) {
            self.track = track
            self.suggestions = suggestions
            self.votes = votes
        }
    }

    public var id: String
    /// The entry the winner follows.
    public var follows: EntryID
    public var candidates: [Candidate]
    /// Votes are taken until this instant (server clock, ms).
    public var closesAt: EpochMillis
    /// The winner, once the ballot closed.
    public var elected: TrackID?
    /// Suggestions waiting for the next ballot.
    public var waitingSuggestions: Int

    public init(
        id: String, follows: EntryID, candidates: [Candidate], closesAt: EpochMillis, elected: TrackID?,
        waitingSuggestions: Int
    ) {
        self.id = id
        self.follows = follows
        self.candidates = candidates
        self.closesAt = closesAt
        self.elected = elected
        self.waitingSuggestions = waitingSuggestions
    }
}

/// One person's standing in a lobby.
public struct StandingView: Sendable, Codable, Equatable {
    /// The ballot open now, if any.
    public var ballotID: String?
    /// Your vote on it.
    public var vote: TrackID?
    /// How much your vote counts (1 with no evidence; 0.25…4).
    public var weight: Double
    /// Why, in one line.
    public var explanation: String

    public init(ballotID: String?, vote: TrackID?, weight: Double, explanation: String) {
        self.ballotID = ballotID
        self.vote = vote
        self.weight = weight
        self.explanation = explanation
    }
}

/// The owner's change to the party: `PATCH /api/stations/{id}/party`.
/// Absent fields stay as they are.
public struct PartySettingsPatch: Sendable, Codable, Equatable {
    public var mode: ProgrammingMode?
    public var open: Bool?
    public var poolOnly: Bool?
    public var maxPendingPerPerson: Int?
    /// The longest track, in ms; 0 for any length.
    public var maxTrackMillis: Int64?
    public var noRepeatWithin: Int?
    public var showVoteCounts: Bool?
    public var skip: SkipThreshold?
    /// A lobby type: its preset comes first, then any other field given.
    public var kind: LobbyKind?
    public var chat: Bool?
    /// Whether guests may post in the chat.
    public var guestChat: Bool?
    /// Whether listeners may send voice clips for approval.
    public var guestClips: Bool?
    public var lyrics: Bool?
    public var volumeVoting: Bool?
    public var loudnessTarget: Double?

    public init(
        mode: ProgrammingMode? = nil, open: Bool? = nil, poolOnly: Bool? = nil, maxPendingPerPerson: Int? = nil,
        maxTrackMillis: Int64? = nil, noRepeatWithin: Int? = nil, showVoteCounts: Bool? = nil, skip: SkipThreshold? = nil,
        kind: LobbyKind? = nil, chat: Bool? = nil, lyrics: Bool? = nil, volumeVoting: Bool? = nil,
        loudnessTarget: Double? = nil, guestChat: Bool? = nil, guestClips: Bool? = nil
    ) {
        self.guestClips = guestClips
        self.kind = kind
        self.chat = chat
        self.guestChat = guestChat
        self.lyrics = lyrics
        self.volumeVoting = volumeVoting
        self.loudnessTarget = loudnessTarget
        self.mode = mode
        self.open = open
        self.poolOnly = poolOnly
        self.maxPendingPerPerson = maxPendingPerPerson
        self.maxTrackMillis = maxTrackMillis
        self.noRepeatWithin = noRepeatWithin
        self.showVoteCounts = showVoteCounts
        self.skip = skip
    }

    /// The settings after this change: the lobby type's preset first, then
    /// every field given, read by `RequestSettings`' own decoder over the
    /// current settings (the patch's fields are the settings' names).
    public func applied(to settings: RequestSettings) throws -> RequestSettings {
        let decoder = JSONDecoder()
        decoder.userInfo[RequestSettings.changing] = kind.map { $0.preset(settings) } ?? settings
        return try decoder.decode(RequestSettings.self, from: try JSONEncoder().encode(self))
    }
}
