/// Runs async jobs with at most `limit` in flight: one ffmpeg per core keeps generation fast
/// without oversubscribing the machine.
package enum LimitedConcurrency {
    package static func run(_ jobs: [@Sendable () async throws -> Void], limit: Int) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            var pending = jobs.makeIterator()
            for _ in 0..<max(1, limit) {
                guard let job = pending.next() else { break }
                group.addTask(operation: job)
            }
            while try await group.next() != nil {
                if let job = pending.next() { group.addTask(operation: job) }
            }
        }
    }
}
