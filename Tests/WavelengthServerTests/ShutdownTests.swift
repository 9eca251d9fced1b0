import AsyncHTTPClient
import Foundation
import Testing
import WavelengthWire

/// Stopping the real `wavelength serve` (SIGTERM) while radio players hold
/// their streams: a stream never ends by itself, so a stop must end it.
@Suite("Stopping the server", .timeLimit(.minutes(3)))
struct ShutdownTests {
    /// One player that still reads and one that stopped (a phone that left
    /// the Wi-Fi: its writes stall): the first is let go at once, the second
    /// is cut after `--shutdown-grace`, and the server exits cleanly. Before,
    /// a single connected player kept a SIGTERM'd server up for good, and
    /// this test hit its time limit.
    @Test func aStopEndsEveryStreamEvenOneNobodyReads() async throws {
        let data = NSTemporaryDirectory() + "wavelength-stop-\(UUID().uuidString)"
        let libraries = try await TestLibrary.shared.roots()
        let (_, exit) = try await ServerProcess.run(
            dataDirectory: data, libraries: libraries, extraArguments: ["--shutdown-grace", "2"]
        ) { server in
            let listed = try await HTTPClient.shared.send(.GET, server.baseURL + "/api/stations").body
            let station = try #require(try JSONDecoder().decode([StationView].self, from: listed).first).id
            let reading = try await StreamPlayerSocket.open(port: server.port, path: "/stream/\(station).mp3", userAgent: "VLC")
            let stalled = try await StreamPlayerSocket.open(
                port: server.port, path: "/stream/\(station).mp3", userAgent: "Phone", tinyBuffer: true)
            // Returns once the server is gone.
            await server.stop()
            withExtendedLifetime((reading, stalled)) {}
        }
        #expect(exit == .exited(0))
    }
}
