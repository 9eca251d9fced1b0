/// Why a request, a vote or a host's change to the queue was refused. Each
/// changes nothing; the server maps them to HTTP and WebSocket error codes.
public enum RequestError: Error, Equatable, Sendable {
    /// The host has turned requests off.
    case closed
    /// The person already has `limit` requests waiting.
    case tooManyPending(limit: Int)
    /// The track is longer than the host allows.
    case tooLong(maxMillis: Int64)
    /// The track played within the last `within` plays.
    case playedRecently(within: Int)
    /// The host vetoed this track.
    case vetoed
    /// The queue holds `RequestQueue.maxPending` requests already.
    case queueFull
    /// No waiting request has this id (it played, was withdrawn or vetoed).
    case unknownRequest
    /// Only the requester (or the host) may withdraw a request.
    case notYours
    case invalidSettings(String)
}
