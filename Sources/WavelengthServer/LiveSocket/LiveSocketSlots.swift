import Foundation
import Synchronization
import WavelengthCore

/// The server's `SocketBudget` behind a lock: a slot is taken before a
/// station's WebSocket is upgraded and given back when the last reference
/// to it goes (the connection closed, or never upgraded).
final class LiveSocketSlots: Sendable {
    private let budget: Mutex<SocketBudget>

    init(limits: SocketBudget.Limits) {
        budget = Mutex(SocketBudget(limits: limits))
    }

    /// Limits for this process's file descriptor limit.
    static func forThisProcess() -> SocketBudget.Limits {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < 10_000_000 else {
            return .forFileLimit(65_536)
        }
        return .forFileLimit(Int(limit.rlim_cur))
    }

    /// A slot for `holder`, or why not.
    func reserve(_ holder: SocketBudget.Holder) throws(SocketBudget.Refusal) -> Slot {
        try budget.withLock { (budget: inout SocketBudget) throws(SocketBudget.Refusal) in try budget.admit(holder) }
        return Slot(slots: self, holder: holder)
    }

    var openSockets: Int { budget.withLock { $0.open } }

    fileprivate func release(_ holder: SocketBudget.Holder) {
        budget.withLock { $0.release(holder) }
    }

    /// One live socket's slot, held by whatever serves the socket.
    final class Slot: Sendable {
        private let slots: LiveSocketSlots
        private let holder: SocketBudget.Holder

        fileprivate init(slots: LiveSocketSlots, holder: SocketBudget.Holder) {
            self.slots = slots
            self.holder = holder
        }

        deinit { slots.release(holder) }
    }
}
