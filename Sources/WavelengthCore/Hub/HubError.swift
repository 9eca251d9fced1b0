/// Why the station machine refused an event. The HTTP and WebSocket layers
/// turn these into status codes and error codes.
public enum HubError: Error, Sendable, Equatable {
    /// The station takes `limit` listeners and has them.
    case stationFull(limit: Int)
    /// The caller's role doesn't allow the operation (or the connection is gone).
    case forbidden(StationOperation)
    /// The DJ role changed hands since the client last heard: epoch `current`,
    /// the command said `given`.
    case staleEpoch(current: Int64, given: Int64)
    /// The timeline refused the edit.
    case timeline(TimelineError)
    /// The party refused a request, a vote or an override.
    case request(RequestError)
    /// The chat refused a message, a reaction or a moderator's action.
    case chat(ChatError)
    /// Nobody listens, so there is no "between songs" to put a clip in.
    case notOnAir
    /// A room calibration's message was malformed or came too fast.
    case room(RoomSignalError)
}
