/// Lets one job through at a time, in arrival order.
///
/// An actor's methods interleave at every `await`; a station's events must
/// not (each is: read storage, run the machine, save, then tell clients), so
/// the hub passes every event through one of these.
struct Turnstile: Sendable {
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// True when the caller may go at once; false means wait in line.
    mutating func enter() -> Bool {
        if busy { return false }
        busy = true
        return true
    }

    mutating func wait(_ continuation: CheckedContinuation<Void, Never>) {
        waiting.append(continuation)
    }

    /// The job finished: the next in line goes (`busy` stays true for it).
    mutating func leave() -> CheckedContinuation<Void, Never>? {
        if waiting.isEmpty {
            busy = false
            return nil
        }
        return waiting.removeFirst()
    }
}
