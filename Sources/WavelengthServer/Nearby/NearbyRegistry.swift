import Synchronization
import WavelengthCore
import WavelengthStore

/// The stations this server announces on the LAN: hubs say when theirs
/// goes on or off the air (or changes name or access), and the announcer
/// hears of each change. A quiet station is simply absent: nothing runs
/// for it.
final class NearbyRegistry: Sendable {
    private let state = Mutex<(stations: [StationID: NearbyAnnouncement], watcher: AsyncStream<Void>.Continuation?)>(([:], nil))
    /// This server's instance, in every announcement (so it can tell its own).
    let serverID: String

    init(serverID: String) {
        self.serverID = serverID
    }

    /// What a station announces, if anything: public stations, and parties
    /// and lobbies behind a code (the code itself is never announced),
    /// while someone listens.
    func announcement(for record: StationRecord, listening: Bool, at now: EpochMillis) -> NearbyAnnouncement? {
        guard listening else { return nil }
        let party = record.mode != .dj
        guard record.visibility == .public || party && record.visibility == .code else { return nil }
        return NearbyAnnouncement(
            serverID: serverID, stationID: record.id, name: record.name, frequency: record.liveFrequency(at: now),
            mode: record.mode, needsCode: record.visibility == .code)
    }

    func set(_ station: StationID, _ announcement: NearbyAnnouncement?) {
        let watcher = state.withLock { state -> AsyncStream<Void>.Continuation? in
            guard state.stations[station] != announcement else { return nil }
            state.stations[station] = announcement
            return state.watcher
        }
        watcher?.yield()
    }

    var all: [NearbyAnnouncement] { state.withLock { Array($0.stations.values) } }

    /// A signal after every change (coalesced while unread).
    func changes() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        state.withLock { $0.watcher = continuation }
        continuation.yield()
        return stream
    }
}
