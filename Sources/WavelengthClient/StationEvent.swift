import WavelengthCore
import WavelengthWire

/// What a `StationClient` reports as it goes.
public enum StationEvent: Sendable {
    case connected(resumed: Bool)
    case snapshot(ServerMessage.Snapshot)
    case updated(TimelineWindow)
    case listeners(Int)
    case clock(offset: Double, roundTrip: Double, samples: Int)
    case acknowledged(CommandAck)
    /// This client's role changed (a listener promoted to DJ, or back).
    case role(isDJ: Bool, epoch: Int64)
    /// The DJ role changed hands, or its holder dropped (`present` false).
    case dj(epoch: Int64, present: Bool)
    /// What this client's person may do on the station, on connect and when it changes.
    case access(StationRole)
    /// Someone was removed (kicked, banned) or left.
    case removed(PersonRef, reason: String)
    /// The owner ended the session; the client stops.
    case ended
    /// The party: mode, rules, the waiting requests and the skip vote.
    case party(PartyView)
    /// Your own votes, by request.
    case votes([RequestID: Vote])
    /// The host moved, vetoed or played a request now.
    case hostOverride(kind: String, trackID: TrackID, requesterName: String)
    /// The thumbs on the song playing (sent to the owner and co-DJs).
    case thumbs(entryID: EntryID, up: Int, down: Int)
    /// Your standing in the lobby: your ballot vote and your weight.
    case standing(StandingView)
    /// The station's loudness target or level changed (from `since`).
    case sound(SoundView)
    /// A chat message (your own too, once kept).
    case chat(ChatMessageView)
    /// The chat's rules and newest messages, on connect and when they change.
    case chatRoom(ChatRoomView)
    /// Chat messages were deleted (these, all of a person's, or all).
    case chatDeleted(messageIDs: [String], personID: String?, all: Bool)
    /// A burst of reactions to the song playing, with its totals.
    case reactions(ReactionsView)
    /// A guest's voice clip waits for approval (owner and co-DJs only).
    case clipWaiting(ClipView)
    /// Another listener's room calibration message (`RoomSignal`).
    case room(RoomSignal)
    case refused(id: String?, code: String, message: String)
    case disconnected(reason: String)
    case reconnecting(attempt: Int, afterMs: Double)
}
