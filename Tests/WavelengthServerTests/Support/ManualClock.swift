import Foundation
import Synchronization
import WavelengthCore
@testable import WavelengthServer

/// A clock a test moves by hand. The hub's timers sleep on it, and `wall`
/// is the server's wall clock moving with it, so a test fires a timer by
/// advancing time, with no real waiting.
final class ManualClock: Clock {
    struct Instant: InstantProtocol {
        var offset: Duration

        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [UInt64: Sleeper] = [:]
        var nextID: UInt64 = 0
        /// Tests waiting for a sleeper with this deadline to be registered.
        var watchers: [(deadline: Instant, continuation: CheckedContinuation<Void, Never>)] = []

        /// The watchers a new sleeper with `deadline` satisfies, taken out.
        mutating func watchers(for deadline: Instant) -> [CheckedContinuation<Void, Never>] {
            let due = watchers.filter { $0.deadline == deadline }.map(\.continuation)
            watchers.removeAll { $0.deadline == deadline }
            return due
        }
    }

    private let state = Mutex(State())
    /// The wall-clock instant the clock starts at.
    let start: EpochMillis

    init(start: EpochMillis = 1_700_000_000_000) {
        self.start = start
    }

    /// One that starts at the wall's time now, and then stands still until moved.
    static func startingNow() -> ManualClock {
        ManualClock(start: EpochMillis(Date.now.timeIntervalSince1970 * 1000))
    }

    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .milliseconds(1) }

    /// How many timers are sleeping now.
    var sleeping: Int { state.withLock { $0.sleepers.count } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (resumeNow, watching) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
                    if deadline <= state.now { return (true, []) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return (false, state.watchers(for: deadline))
                }
                for watcher in watching { watcher.resume() }
                if resumeNow { continuation.resume() }
                // Cancelled before the sleeper was registered: onCancel found
                // nothing to resume, so resume it here.
                if Task.isCancelled, let sleeper = state.withLock({ $0.sleepers.removeValue(forKey: id) }) {
                    sleeper.continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
        try Task.checkCancellation()
    }

    /// Returns once something sleeps until `offset` from the clock's start
    /// (at once if something already does): a test moves time only after
    /// the timer it means to fire is set.
    func untilSleeping(until offset: Duration) async {
        let deadline = Instant(offset: offset)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let already = state.withLock { state -> Bool in
                if state.sleepers.values.contains(where: { $0.deadline == deadline }) { return true }
                state.watchers.append((deadline, continuation))
                return false
            }
            if already { continuation.resume() }
        }
    }

    /// Moves time on and wakes every timer that came due.
    func advance(by duration: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = state.now.advanced(by: duration)
            let due = state.sleepers.filter { $0.value.deadline <= state.now }
            for id in due.keys { state.sleepers[id] = nil }
            return Array(due.values)
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// The server's wall clock, moving with this one.
    var wall: Wall { Wall(clock: self) }

    struct Wall: ServerClock {
        let clock: ManualClock

        func now() -> EpochMillis {
            clock.start + clock.now.offset.milliseconds
        }

        func preciseNow() -> Double {
            Double(now())
        }
    }
}
