import Synchronization

/// A child process's output, line by line, that tasks can wait on: until a
/// line shows up, or until the output ends (the child has exited).
final class OutputLog: Sendable {
    private struct Waiter {
        let condition: @Sendable (String) -> Bool
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var text = ""
        var ended = false
        var waiters: [Waiter] = []
    }

    private let state = Mutex(State())

    var text: String { state.withLock { $0.text } }
    var hasEnded: Bool { state.withLock { $0.ended } }

    func append(_ line: String) {
        let ready = state.withLock { state in
            state.text += line + "\n"
            let text = state.text
            let ready = state.waiters.filter { $0.condition(text) }
            state.waiters.removeAll { $0.condition(text) }
            return ready
        }
        for waiter in ready { waiter.continuation.resume(returning: true) }
    }

    func end() {
        let waiting = state.withLock { state in
            state.ended = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiting { waiter.continuation.resume(returning: false) }
    }

    /// Waits until the text so far meets `condition` (true) or the output
    /// ends without it (false).
    func wait(until condition: @escaping @Sendable (String) -> Bool) async -> Bool {
        await withCheckedContinuation { continuation in
            let answer: Bool? = state.withLock { state in
                if condition(state.text) { return true }
                if state.ended { return false }
                state.waiters.append(Waiter(condition: condition, continuation: continuation))
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }
}
