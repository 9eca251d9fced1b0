/// What the station machine asks its owner (the server's hub) to do. The
/// machine decides; the hub performs, in order: saves first (a transition
/// whose save fails is thrown away), then messages, closes and timers.
public enum HubAction: Sendable, Equatable {
    /// Save this state in one transaction before anything else is performed.
    case save(StationSave)
    /// A message to one connection.
    case send(ConnectionID, HubNotice)
    /// A message to every connection, but one.
    case broadcast(HubNotice, except: ConnectionID?)
    /// To everyone but `skipped` (a block stands between them and the sender).
    case broadcastSkipping(HubNotice, skipped: Set<ConnectionID>)
    /// A full snapshot (station, timeline window, listeners) to one
    /// connection; `reply` when it answers something the client sent.
    case sendSnapshot(ConnectionID, reply: Bool)
    /// A full snapshot to every connection (settings changed).
    case broadcastSnapshot
    /// The timeline window to every connection (the timeline changed).
    case broadcastUpdate
    /// The party's queue, as this connection's person may see it (with
    /// their own votes).
    case sendRequests(ConnectionID)
    /// The party's queue to everyone (it changed).
    case broadcastRequests
    /// Close one connection; its disconnect event follows.
    case close(ConnectionID)
    /// Fire `timer` at this instant, replacing any earlier one of its kind.
    case startTimer(HubTimer, at: EpochMillis)
    case cancelTimer(HubTimer)
    /// Minutes of the audience series that ended; kept apart from the
    /// station's saves (a lost minute of statistics never holds up play).
    case recordAudience([ListenerMinute])
    /// Save a change to the chat, before anything else is performed (as `save`).
    case saveChat(ChatSave)
    /// The chat as this connection may see it (`StationMachine.chatRoom`).
    case sendChatRoom(ConnectionID)
    /// The chat to everyone, each as they may see it (its rules changed).
    case broadcastChatRoom
    /// A burst of reactions to keep with the song's totals; like
    /// `recordAudience`, a lost one never holds up play.
    case recordReactions(Reactions.Burst)
}

/// The station's timers. At most one of each runs at a time, and only
/// while someone listens.
public enum HubTimer: Sendable, Hashable {
    /// The current entry ends: settle history and top the schedule up.
    case tick
    /// The DJ's grace period ran out: promote a co-DJ.
    case promotion
    /// The listener count changed since it was last sent: send it now.
    case listenerCount
    /// The lobby's ballot closes: elect the winner.
    case ballot
    /// A minute of the audience series ends: keep it.
    case audienceMinute
    /// A show's host starts or stops being a co-DJ.
    case hosting
    /// The reactions gathered since the last burst go out.
    case reactions
}

/// The messages the machine decides to send; the wire layer spells them.
public enum HubNotice: Sendable, Equatable {
    /// A reconnect that missed nothing.
    case resumed(revision: Int64, listeners: Int)
    case listeners(count: Int)
    /// What this connection's person may do on the station.
    case access(StationRole)
    /// This connection holds the DJ booth, or not.
    case role(isDJ: Bool, epoch: Int64)
    /// The DJ role changed hands (to `name`), or is empty while the grace
    /// period runs.
    case dj(epoch: Int64, present: Bool, name: String? = nil)
    case removed(personID: String, name: String, reason: String)
    case ended
    /// This connection may no longer listen (the station's visibility
    /// changed and its person doesn't qualify); it is closed after this.
    case accessLost
    /// The votes this connection's person has cast, by request.
    case votes([RequestID: Vote])
    /// The host overrode the room: everyone is told what happened.
    case hostOverride(HostOverride)
    /// The thumbs on the song playing, for the DJ's feedback.
    case thumbs(entryID: EntryID, up: Int, down: Int)
    /// One person's standing in the lobby: their vote on the open ballot,
    /// their weight and why.
    case standing(ballotID: String?, vote: TrackID?, weight: Double, explanation: String)
    /// The station's loudness target or level changed.
    case sound(StationSound)
    /// A chat message; `ref` is the author's own id for it, sent to them only.
    case chat(ChatMessage, ref: String?)
    /// Chat messages were deleted: these ids, or all of `personID`'s, or all.
    case chatDeleted(messageIDs: [String], personID: String?, all: Bool)
    /// A burst of reactions to the song playing, with its totals.
    case reactions(Reactions.Burst)
    /// A guest's voice clip waits for the host's approval.
    case clipWaiting(VoiceClip)
    /// A room calibration's message from another listener (`RoomSignal`).
    case room(RoomSignal)
}

/// What the host did to a request, so the room knows why the order changed.
public struct HostOverride: Sendable, Equatable {
    public enum Kind: String, Sendable, Codable {
        case moved, vetoed, playedNow
        /// The host decided the lobby's ballot.
        case elected
    }

    public var kind: Kind
    public var trackID: TrackID
    public var requesterName: String

    public init(kind: Kind, trackID: TrackID, requesterName: String) {
        self.kind = kind
        self.trackID = trackID
        self.requesterName = requesterName
    }
}

/// One transaction's worth of station state.
public struct StationSave: Sendable, Equatable {
    public var state: StationState
    /// Entries that finished (or were cut) and belong in history.
    public var played: [TimelineEntry]
    /// The command that caused it, recorded in the same transaction so a
    /// resend after a crash is still recognised.
    public var command: AppliedCommand?
    /// The party's queue, when the event changed it (nil: unchanged).
    public var party: RequestQueue?
    /// A thumb given (or taken back) with this event.
    public var thumb: Thumb?
    /// The lobby's ballot and suggestions, when the event changed them.
    public var lobby: LobbyState.Saved?
    /// The people whose credibility the event changed, with their new standing.
    public var credibility: [String: Credibility] = [:]
    /// What the robot's taste learned from this event (nil: nothing).
    public var taste: TasteModel.Change?
    /// The most people listening at once while the `played` entries played
    /// (since the last plays went to history).
    public var listeners: Int?

    public init(
        state: StationState, played: [TimelineEntry], command: AppliedCommand?, party: RequestQueue? = nil,
        thumb: Thumb? = nil, taste: TasteModel.Change? = nil
    ) {
        self.state = state
        self.played = played
        self.command = command
        self.party = party
        self.thumb = thumb
        self.taste = taste
    }
}

/// A command id the station applied, and the revision it produced.
public struct AppliedCommand: Sendable, Equatable {
    public var id: String
    public var revision: Int64
    public var appliedAt: EpochMillis

    public init(id: String, revision: Int64, appliedAt: EpochMillis) {
        self.id = id
        self.revision = revision
        self.appliedAt = appliedAt
    }
}
