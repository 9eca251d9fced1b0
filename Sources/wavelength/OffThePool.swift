import Foundation

/// Runs blocking work (SQLite's backup API, file copies) on a thread of its
/// own, so it never holds one of Swift's cooperative threads.
func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
