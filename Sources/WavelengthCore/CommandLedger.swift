/// Remembers which command ids a station has applied, and at which revision,
/// so a resent command is acknowledged again instead of applied twice.
///
/// Bounded: only the most recent `capacity` ids are kept in memory; storage
/// keeps the full record for lookups after that.
public struct CommandLedger: Sendable, Equatable {
    public let capacity: Int
    private var order: [String] = []
    private var revisions: [String: Int64] = [:]

    public init(capacity: Int = 512) {
        self.capacity = capacity
    }

    public func revision(for commandID: String) -> Int64? {
        revisions[commandID]
    }

    public mutating func record(_ commandID: String, revision: Int64) {
        guard revisions[commandID] == nil else { return }
        revisions[commandID] = revision
        order.append(commandID)
        if order.count > capacity {
            let dropped = order.removeFirst()
            revisions[dropped] = nil
        }
    }
}
