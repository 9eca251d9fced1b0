import Synchronization
import WavelengthCore

/// Numbers live connections server-wide, so an id is never reused while
/// the server runs.
enum ConnectionIDs {
    private static let counter = Atomic<UInt64>(0)

    static func next() -> ConnectionID {
        ConnectionID(counter.add(1, ordering: .relaxed).newValue)
    }
}
