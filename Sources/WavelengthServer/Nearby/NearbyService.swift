import Logging
import WavelengthCore
import WavelengthNearby

/// Announces this server's stations on the LAN as `_wavelength._tcp`
/// (through Avahi), and browses for other servers' so the web app can show
/// "On this network" (a browser can't browse mDNS itself).
///
/// Without an Avahi daemon the server runs as usual: `AvahiSession` says
/// so once in the log and announces when a daemon appears.
final class NearbyService: Sendable {
    let registry: NearbyRegistry
    private let publisher: NearbyPublisher
    let browser: NearbyBrowser

    init(serverID: String, logger: Logger) {
        registry = NearbyRegistry(serverID: serverID)
        browser = NearbyBrowser(logger: logger)
        publisher = NearbyPublisher(sharing: browser)
    }

    /// The stations other servers announce, each once.
    var others: [NearbyStation] {
        browser.stations.filter { $0.announcement.serverID != registry.serverID }
    }

    /// Keeps the announcements in step with the registry, on `port`, until
    /// cancelled. A server that listens on loopback only can't be reached
    /// from the LAN, so it announces nothing (and says so).
    func announce(host: String, port: Int, logger: Logger) async {
        guard !(host.hasPrefix("127.") || host == "localhost" || host == "::1") else {
            logger.notice(
                "mDNS: listening on \(host) only, so stations aren't announced on the LAN (serve --host 0.0.0.0 to announce them)")
            return
        }
        for await _ in registry.changes() {
            publisher.announce(registry.all, port: port)
        }
    }
}
