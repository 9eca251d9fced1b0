import Logging
import Synchronization
import WavelengthCore

/// Finds the stations announced on the local network (`_wavelength._tcp`):
/// Avahi on Linux, Network.framework's `NWBrowser` on Apple platforms. The
/// list keeps itself current: a station that leaves the air (or whose
/// server stops) leaves it.
public final class NearbyBrowser: Sendable {
    private let state = Mutex<(stations: [NearbyStation], watchers: [UInt64: AsyncStream<[NearbyStation]>.Continuation], next: UInt64)>(([], [:], 0))
    #if canImport(CAvahi)
    let session: AvahiSession
    #elseif canImport(Network)
    private let apple: AppleBrowser
    #endif

    public init(logger: Logger = Logger(label: "wavelength.nearby")) {
        #if canImport(CAvahi)
        session = AvahiSession(logger: logger)
        session.browse(NearbyAnnouncement.serviceType) { [weak self] found in
            self?.update(Self.stations(from: found.map { ($0.host, $0.port, $0.txt) }))
        }
        #elseif canImport(Network)
        apple = AppleBrowser()
        apple.start { [weak self] found in self?.update(Self.stations(from: found)) }
        #endif
    }

    /// What is known now.
    public var stations: [NearbyStation] { state.withLock { $0.stations } }

    /// The list now, then after every change, until the caller stops.
    public func changes() -> AsyncStream<[NearbyStation]> {
        let (stream, continuation) = AsyncStream<[NearbyStation]>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state in
            state.next += 1
            state.watchers[state.next] = continuation
            continuation.yield(state.stations)
            return state.next
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.watchers.removeValue(forKey: id) }
        }
        return stream
    }

    private func update(_ stations: [NearbyStation]) {
        let watchers = state.withLock { state -> [AsyncStream<[NearbyStation]>.Continuation] in
            guard state.stations != stations else { return [] }
            state.stations = stations
            return Array(state.watchers.values)
        }
        for watcher in watchers { watcher.yield(stations) }
    }

    /// Each station once (Avahi reports one per interface), at a LAN
    /// address rather than loopback when it has one; by name.
    static func stations(from found: [(host: String, port: Int, txt: [String])]) -> [NearbyStation] {
        var byStation: [String: NearbyStation] = [:]
        for item in found {
            guard let announcement = NearbyAnnouncement(txt: item.txt) else { continue }
            let station = NearbyStation(announcement: announcement, host: item.host, port: item.port)
            let key = announcement.serverID + "/" + announcement.stationID
            if let known = byStation[key], !known.host.hasPrefix("127."), known.host < station.host || station.host.hasPrefix("127.") {
                continue
            }
            byStation[key] = station
        }
        return byStation.values.sorted {
            ($0.announcement.name, $0.announcement.stationID) < ($1.announcement.name, $1.announcement.stationID)
        }
    }
}

/// Announces stations on the local network, one service each.
public final class NearbyPublisher: Sendable {
    #if canImport(CAvahi)
    private let session: AvahiSession
    #endif

    /// Announces through the same connection to the daemon `browser` uses
    /// (one connection, one word in the log when there is no daemon).
    public init(sharing browser: NearbyBrowser) {
        #if canImport(CAvahi)
        session = browser.session
        #endif
    }

    /// Announces exactly these stations, on `port` (the server's HTTP port).
    public func announce(_ stations: [NearbyAnnouncement], port: Int) {
        #if canImport(CAvahi)
        session.publish(
            Dictionary(
                stations.map { station in
                    (
                        station.stationID,
                        AvahiSession.Service(
                            name: station.instanceName, type: NearbyAnnouncement.serviceType, port: UInt16(clamping: port),
                            txt: station.txt)
                    )
                }, uniquingKeysWith: { first, _ in first }))
        #endif
    }

    /// Whether an mDNS daemon answers (announcements go out).
    public var isAnnouncing: Bool {
        #if canImport(CAvahi)
        session.isRunning
        #else
        false
        #endif
    }
}
