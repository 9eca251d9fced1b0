#if !canImport(CAvahi) && canImport(Network)
import Network
import Synchronization

/// `NWBrowser` for `_wavelength._tcp`, each result resolved to an address
/// with a short-lived `NWConnection` (Network.framework gives TXT records
/// with the browse, but addresses only through a connection).
///
/// Not built or tested on Linux, where the server and its tests run.
final class AppleBrowser: Sendable {
    private let queue = DispatchQueue(label: "wavelength.nearby")
    private let found = Mutex<[String: (host: String, port: Int, txt: [String])]>([:])
    private let browser = Mutex<NWBrowser?>(nil)

    func start(_ changed: @escaping @Sendable ([(host: String, port: Int, txt: [String])]) -> Void) {
        let browser = NWBrowser(for: .bonjourWithTXTRecord(type: "_wavelength._tcp", domain: nil), using: .tcp)
        browser.browseResultsChangedHandler = { [weak self] results, _ in
            guard let self else { return }
            let keys = Set(results.map { "\($0.endpoint)" })
            self.found.withLock { found in found = found.filter { keys.contains($0.key) } }
            changed(self.found.withLock { Array($0.values) })
            for result in results {
                guard case .bonjour(let record) = result.metadata else { continue }
                let txt = record.dictionary.map { "\($0.key)=\($0.value)" }
                self.resolve(result.endpoint, txt: txt, changed: changed)
            }
        }
        browser.start(queue: queue)
        self.browser.withLock { $0 = browser }
    }

    private func resolve(
        _ endpoint: NWEndpoint, txt: [String], changed: @escaping @Sendable ([(host: String, port: Int, txt: [String])]) -> Void
    ) {
        let connection = NWConnection(to: endpoint, using: .tcp)
        connection.stateUpdateHandler = { [weak self] state in
            guard let self, case .ready = state else {
                if case .failed = state { connection.cancel() }
                return
            }
            if case .hostPort(let host, let port) = connection.currentPath?.remoteEndpoint {
                let address = "\(host)".split(separator: "%").first.map(String.init) ?? "\(host)"
                self.found.withLock { $0["\(endpoint)"] = (address, Int(port.rawValue), txt) }
                changed(self.found.withLock { Array($0.values) })
            }
            connection.cancel()
        }
        connection.start(queue: queue)
    }
}
#endif
