import WavelengthCore

/// How the nodes sharing one store tell each other what changed: an outbox
/// of `ClusterSignal`s in one order, and a wake-up when one is added. A
/// wake-up carries nothing a node relies on; a node reads the outbox after
/// the last signal it read, on every wake-up and at a poll (a wake-up can be
/// missed while its connection is down). The embedded store has one node:
/// nobody to tell, nothing to read.
public protocol ClusterSignals: Sendable {
    /// The node this store publishes as (a node skips its own signals).
    var signalsNodeID: String { get }
    /// Adds a signal to the outbox (in the order every node reads) and wakes
    /// the other nodes.
    func publish(_ signal: ClusterSignal) async throws
    /// The signals after `sequence`, oldest first, at most `limit`.
    func signals(after sequence: Int64, limit: Int) async throws -> [ClusterSignal]
    /// Forgets signals older than `seconds` (every node has read them).
    func pruneSignals(olderThan seconds: Double) async throws
    /// Listens for wake-ups until cancelled, telling `heard` of each, that
    /// listening (re)started (read now: wake-ups sent while it was down are
    /// lost) and that it stopped. Reconnects by itself after a lost connection.
    func listenForSignals(_ heard: @escaping @Sendable (SignalWakeUp) -> Void) async
}

/// What the LISTEN connection heard.
public enum SignalWakeUp: Sendable, Equatable {
    /// Listening (again): what was sent meanwhile is in the outbox.
    case listening
    /// A signal was published.
    case notified
    /// The connection is lost: until `listening`, only a poll finds signals.
    case lost
}
