import Logging
import Synchronization
import ServiceLifecycle
import WavelengthCore
import WavelengthStore

/// Reads the cluster's signals (`ClusterSignals`) and has the directory act
/// on them: on every wake-up from the node's LISTEN connection, and at a
/// poll in case a wake-up was lost. Wake-ups coalesce: however many arrive
/// during a read, one more read follows. Runs only when several nodes share
/// the store.
struct SignalFollower: Service {
    let signals: any ClusterSignals
    let directory: StationDirectory
    let node: String
    /// The fallback for a lost wake-up: while the LISTEN connection is down,
    /// and (seldom, a connection may be cut without either end knowing yet)
    /// while it is up.
    var poll: Duration = .seconds(2)
    var pollWhileListening: Duration
    /// How long signals are kept: far longer than any node takes to read them.
    var keep: Duration = .seconds(600)
    let logger: Logger

    /// How many signals one read takes; a longer backlog takes several.
    static let batch = 500

    func run() async throws {
        let (wakeUps, waker) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let signals = signals
        let (poll, slowPoll) = (poll, pollWhileListening)
        let listening = ListeningFlag()
        try? await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    await signals.listenForSignals { heard in
                        listening.up.store(heard != .lost, ordering: .relaxed)
                        if heard != .lost { waker.yield() }
                    }
                }
                group.addTask {
                    var waited = Duration.zero
                    while (try? await Task.sleep(for: poll)) != nil {
                        waited += poll
                        guard !listening.up.load(ordering: .relaxed) || waited >= slowPoll else { continue }
                        waited = .zero
                        waker.yield()
                    }
                }
                group.addTask { await follow(wakeUps) }
            }
        }
        waker.finish()
    }

    private func follow(_ wakeUps: AsyncStream<Void>) async {
        // From the oldest kept: a node starting has nothing loaded, so what
        // it reads of the past changes nothing but its lobby map (which
        // it wants), and no signal sent as it starts is missed.
        var cursor = SignalCursor(node: node, position: 0)
        var failing = false
        var prunedAt = ContinuousClock.now
        for await _ in wakeUps {
            do {
                var reading = cursor
                while true {
                    let batch = try await signals.signals(after: reading.position, limit: Self.batch)
                    for action in reading.read(batch) { await perform(action) }
                    cursor = reading
                    if batch.count < Self.batch { break }
                }
                if failing { logger.notice("Reading the cluster's signals again") }
                failing = false
                if ContinuousClock.now - prunedAt > keep / 10 {
                    prunedAt = .now
                    try await signals.pruneSignals(olderThan: Double(keep.components.seconds))
                }
            } catch {
                // A stop cancels a read in flight: nothing failed.
                if Task.isCancelled { return }
                if !failing { logger.warning("Could not read the cluster's signals (trying again at the poll): \(error)") }
                failing = true
            }
        }
    }

    private func perform(_ action: SignalCursor.Action) async {
        switch action {
        case .reloadStation(let id):
            do {
                try await directory.reload(id)
            } catch {
                logger.warning("Could not read station \(id) again after another node changed it: \(error)")
            }
        case .enteredLobby(let personID, let stationID):
            await directory.enteredLobbyElsewhere(personID: personID, stationID: stationID)
        }
    }
}

/// Whether the LISTEN connection is up, shared by its task and the poll's.
private final class ListeningFlag: Sendable {
    let up = Atomic<Bool>(false)
}
