import Logging
import ServiceLifecycle
import Synchronization
import Testing

@testable import WavelengthServer

/// A stop drains before the application stops: the application is told to
/// stop only once `/health` has been answering 503 for the drain's period.
@Suite("Draining at a stop")
struct DrainTests {
    /// Stands for the application: notes whether the node was draining
    /// when its own stop began.
    struct Application: Service {
        final class Note: Sendable {
            let sawDraining = Mutex<Bool?>(nil)
        }

        let drain: Drain
        let note = Note()

        func run() async throws {
            try? await gracefulShutdown()
            note.sawDraining.withLock { $0 = drain.isDraining }
        }
    }

    @Test func theApplicationStopsAfterTheDrain() async throws {
        let drain = Drain(period: .milliseconds(100))
        let logger = Logger(label: "test")
        let application = Application(drain: drain)
        // As runUntilStopped orders them: the application, then the drain.
        let group = ServiceGroup(
            configuration: .init(services: [application, DrainService(drain: drain, logger: logger)], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            #expect(!drain.isDraining)
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        #expect(application.note.sawDraining.withLock { $0 } == true)
    }
}
