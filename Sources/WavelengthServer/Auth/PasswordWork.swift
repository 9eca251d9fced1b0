import Hummingbird
import NIOCore
import NIOPosix
import WavelengthWire

/// Runs bcrypt on NIO's thread pool a few jobs at a time, sharing the slots
/// fairly between client addresses (`FairSlots`): a flood of signups from
/// one address waits behind itself, and a login from elsewhere gets the
/// next free slot. Too much waiting is refused at once (429, `busy`).
struct PasswordWork: Sendable {
    private let slots: FairSlots

    /// One slot per core: bcrypt is pure CPU, and more at once only makes
    /// every one of them slower.
    init(slots: Int = System.coreCount, maxWaitingPerAddress: Int = 8, maxWaiting: Int = 256) {
        self.slots = FairSlots(
            slots: slots, maxWaitingPerClient: maxWaitingPerAddress, maxWaiting: maxWaiting,
            busy: "The server is busy checking passwords; try again in a few seconds.", retryAfterSeconds: 2)
    }

    /// Runs `work` for `address` when its turn comes.
    func run<T: Sendable>(for address: String, _ work: @escaping @Sendable () -> T) async throws -> T {
        try await slots.run(for: address) { try await NIOThreadPool.singleton.runIfActive(work) }
    }
}
