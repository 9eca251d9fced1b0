import WavelengthCore
import WavelengthWire

extension HubNotice {
    /// How the machine's notice is spelled on the wire.
    func message(serverTime: EpochMillis) -> ServerMessage {
        switch self {
        case .resumed(let revision, let listeners):
            .resumed(revision: revision, serverTime: serverTime, listeners: listeners)
        case .listeners(let count):
            .listeners(count: count)
        case .access(let role):
            .access(role: role)
        case .role(let isDJ, let epoch):
            .role(role: isDJ ? "dj" : "listener", epoch: epoch)
        case .dj(let epoch, let present, let name):
            .dj(epoch: epoch, present: present, name: name)
        case .removed(let personID, let name, let reason):
            .removed(person: PersonRef(id: personID, name: name), reason: reason)
        case .ended:
            .ended
        case .accessLost:
            .error(
                id: nil, code: ErrorCode.notAMember.rawValue,
                message: "This station is private now, and you are not one of its members.")
        case .votes(let votes):
            .votes(votes)
        case .hostOverride(let change):
            .hostOverride(kind: change.kind.rawValue, trackID: change.trackID, requesterName: change.requesterName)
        case .thumbs(let entryID, let up, let down):
            .thumbs(entryID: entryID, up: up, down: down)
        case .standing(let ballotID, let vote, let weight, let explanation):
            .standing(StandingView(ballotID: ballotID, vote: vote, weight: weight, explanation: explanation))
        case .sound(let sound):
            .sound(SoundView(sound))
        case .chat(let message, let ref):
            .chat(message: ChatMessageView(message), ref: ref)
        case .chatDeleted(let ids, let personID, let all):
            .chatDeleted(messageIDs: ids, personID: personID, all: all)
        case .reactions(let burst):
            .reactions(ReactionsView(burst))
        case .clipWaiting(let clip):
            .clipWaiting(ClipView(clip))
        case .room(let signal):
            .room(signal)
        }
    }
}
