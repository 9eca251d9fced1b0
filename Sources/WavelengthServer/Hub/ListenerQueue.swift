/// Where the hub puts one connection's messages. The live server's is a
/// `ListenerOutbox` (written on the connection's event loop); the hub's
/// tests read an `AsyncStream`.
protocol ListenerQueue: Sendable {
    /// Queues a message; false when the listener is too far behind to take
    /// it (the hub then closes the queue: the client reconnects and resyncs).
    func offer(_ outgoing: LiveOutgoing) -> Bool
    /// Nothing more will be queued: what waits is still written, then the
    /// connection ends.
    func finish()
    /// Whether its client takes updates that name the tracks it holds by id
    /// (protocol version 2, see `KnownTracks`).
    var compactUpdates: Bool { get }
}

extension AsyncStream.Continuation: ListenerQueue where Element == LiveOutgoing {
    /// In-process readers (the stream's timeline follower, tests) take
    /// whole updates.
    var compactUpdates: Bool { false }

    func offer(_ outgoing: LiveOutgoing) -> Bool {
        if case .dropped = yield(outgoing) { return false }
        return true
    }
}
