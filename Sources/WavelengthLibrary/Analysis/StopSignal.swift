import Synchronization

/// Set from the cancelling task, read by the analysis loop on its lane's
/// thread between frames.
final class StopSignal: Sendable {
    private let raised = Atomic<Bool>(false)

    func raise() { raised.store(true, ordering: .relaxed) }
    var isRaised: Bool { raised.load(ordering: .relaxed) }
}
