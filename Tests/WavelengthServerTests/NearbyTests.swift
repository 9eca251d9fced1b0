import AsyncHTTPClient
import Foundation
import Testing
import WavelengthWire

/// Finding parties on the LAN, for real: an avahi-daemon, two servers that
/// announce their stations on the air as `_wavelength._tcp`, each listing
/// the other's at `/api/nearby`, the CLI browsing, and a station that
/// leaves the air leaving the list.
@Suite("Stations on this network", .serialized, .timeLimit(.minutes(5)))
struct NearbyTests {
    static let http = HTTPClient.shared

    /// Signs up an owner on a server process: their station's id and token.
    static func owner(on server: ServerProcess, _ name: String) async throws -> (station: String, token: String) {
        let body = try JSONEncoder().encode(
            SignupRequest(handle: TestHandles.next("n"), displayName: name, password: "correct horse", tokens: true))
        let answer = try await http.send(.POST, server.baseURL + "/api/auth/signup", body: body)
        let auth = try JSONDecoder().decode(AuthResponse.self, from: answer.body)
        return (try #require(auth.station?.id), try #require(auth.tokens?.accessToken))
    }

    static func nearby(_ server: ServerProcess) async throws -> NearbyList {
        try JSONDecoder().decode(NearbyList.self, from: try await http.send(.GET, server.baseURL + "/api/nearby").body)
    }

    /// Asks `server` until `condition` holds of what it sees nearby, or a
    /// minute passes (mDNS answers within seconds; a loaded machine is slow).
    static func nearby(_ server: ServerProcess, until condition: (NearbyList) -> Bool) async throws -> NearbyList {
        var seen = try await nearby(server)
        for _ in 0..<300 where !condition(seen) {
            try await Task.sleep(for: .milliseconds(200))
            seen = try await nearby(server)
        }
        return seen
    }

    @Test func twoServersFindEachOthersStationsAndOneLeavingTheAirLeavesTheList() async throws {
        let libraries = try await TestLibrary.shared.roots()
        try await AvahiDaemon.with { avahi in try await Self.findEachOther(avahi, libraries) }
    }

    private static func findEachOther(_ avahi: AvahiDaemon, _ libraries: [String]) async throws {
        // Reachable from the LAN, so sign-ups would wait for approval by default.
        let lan = ["--host", "0.0.0.0", "--registration", "open"]
        _ = try await ServerProcess.run(
            dataDirectory: NSTemporaryDirectory() + "wavelength-lan-a-\(UUID().uuidString)", libraries: libraries,
            pingInterval: 60, mdns: true, environment: avahi.environment, extraArguments: lan
        ) { a in
            _ = try await ServerProcess.run(
                dataDirectory: NSTemporaryDirectory() + "wavelength-lan-b-\(UUID().uuidString)", libraries: libraries,
                pingInterval: 60, mdns: true, environment: avahi.environment, extraArguments: lan
            ) { b in
                let ana = try await Self.owner(on: a, "Ana")
                let bo = try await Self.owner(on: b, "Bo")
                // Listeners put both stations on the air.
                let onA = LiveClient(port: a.port, path: "/api/stations/\(ana.station)/live?v=1")
                let onB = LiveClient(port: b.port, path: "/api/stations/\(bo.station)/live?v=1")
                defer { onA.close() }
                _ = try await onA.snapshot()
                _ = try await onB.snapshot()

                let fromA = try await Self.nearby(a) { $0.stations.contains { $0.stationID == bo.station } }
                let found = try #require(
                    fromA.stations.first { $0.stationID == bo.station },
                    "A never saw B's station. A: \(Self.mdnsLines(a)) B: \(Self.mdnsLines(b))")
                #expect(fromA.browsing)
                #expect(found.serverURL.hasSuffix(":\(b.port)"))
                #expect(found.stationURL == found.serverURL + "/#/station/\(bo.station)")
                #expect(found.mode == .dj && !found.needsCode)
                // A's own station is not "nearby" to A.
                #expect(!fromA.stations.contains { $0.stationID == ana.station })
                // The other way round, and the address works.
                let fromB = try await Self.nearby(b) { $0.stations.contains { $0.stationID == ana.station } }
                let back = try #require(fromB.stations.first { $0.stationID == ana.station }, "B never saw A's station")
                let health = try await Self.http.send(.GET, back.serverURL + "/health")
                #expect(health.status == .ok)

                // The command line browses too.
                let listed = try await ServerProcess.command(
                    ["tune", "--nearby", "--browse-seconds", "3"], environment: avahi.environment)
                #expect(listed.status == 0)
                #expect(listed.output.contains(back.name), "\(listed.output)")

                // B's station leaves the air: it leaves A's list.
                onB.close()
                let after = try await Self.nearby(a) { !$0.stations.contains { $0.stationID == bo.station } }
                #expect(!after.stations.contains { $0.stationID == bo.station })
            }
        }
    }

    /// A server started before its D-Bus (as a machine boots, or a test
    /// races its daemon) can't make an Avahi client at all: it says so once,
    /// tries again quietly, and announces once the bus and daemon are up.
    @Test func aServerStartedBeforeItsBusAnnouncesOnceItIsUp() async throws {
        let libraries = try await TestLibrary.shared.roots()
        let folder = try AvahiDaemon.newBusFolder()
        _ = try await ServerProcess.run(
            dataDirectory: NSTemporaryDirectory() + "wavelength-lan-early-\(UUID().uuidString)", libraries: libraries,
            pingInterval: 60, mdns: true, environment: AvahiDaemon.environment(busFolder: folder),
            extraArguments: ["--host", "0.0.0.0"]
        ) { early in
            // No bus yet: it can't be used.
            #expect(await early.log.wait { $0.contains("mDNS: Avahi could not be used") })
            try await AvahiDaemon.with(busFolder: folder) { _ in
                // Until what it said of mDNS has settled on announcing: its
                // last word is "can be used now" or "the Avahi daemon is
                // back", and each time it could not be used was said once and
                // ended once ("could not be used" by "can be used now", "no
                // Avahi daemon" by "is back"), not said at every retry. The
                // client can come up with the bus a moment before the daemon
                // (a loaded machine): then "can be used now" comes first and
                // "is back" only once the daemon answers, so a wait for the
                // first alone ends too early. Bounded by the suite's time
                // limit; the retries wait 2, 4, 8… s, at most 60.
                let settled = await early.log.wait { text in
                    let lines = text.split(separator: "\n").filter { $0.contains("mDNS:") }
                    let last = lines.last ?? ""
                    func count(_ phrase: String) -> Int { lines.filter { $0.contains(phrase) }.count }
                    return (last.contains("can be used now") || last.contains("the Avahi daemon is back"))
                        && count("could not be used") == count("can be used now")
                        && count("no Avahi daemon is running") == count("the Avahi daemon is back")
                }
                #expect(settled, "\(Self.mdnsLines(early))")
                let list = try await Self.nearby(early)
                #expect(list.browsing)
            }
        }
    }

    /// What a server's log says of mDNS, for a failure's message.
    static func mdnsLines(_ server: ServerProcess) -> String {
        server.log.text.split(separator: "\n").filter { $0.contains("mDNS") }.suffix(10).joined(separator: " | ")
    }

    /// With no Avahi daemon the server serves as usual and says so once.
    @Test func withNoDaemonTheServerRunsAndSaysSoOnce() async throws {
        let libraries = try await TestLibrary.shared.roots()
        let (log, _) = try await ServerProcess.run(
            dataDirectory: NSTemporaryDirectory() + "wavelength-lan-none-\(UUID().uuidString)", libraries: libraries,
            mdns: true, environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/wavelength-test-bus"],
            extraArguments: ["--host", "0.0.0.0"]
        ) { server in
            let health = try await Self.http.send(.GET, server.baseURL + "/health")
            #expect(health.status == .ok)
            let list = try await Self.nearby(server)
            #expect(list.browsing && list.stations.isEmpty)
            return server.log.text
        }
        let lines = log.split(separator: "\n").filter { $0.contains("mDNS:") }
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.contains("not announced") == true)
    }
}
