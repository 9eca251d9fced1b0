import Foundation
import Testing

/// `wavelength-bench listeners` against the real server: the popular-station
/// figures in the closing notes come from it, so it must keep measuring what
/// it says it does. Small here: a check that it works, not a measurement.
@Suite("The listeners bench", .timeLimit(.minutes(5)))
struct BenchCommandTests {
    @Test func quietReadersTimeEachUpdateAtEverySocketAndThenReadIt() async throws {
        let data = NSTemporaryDirectory() + "wavelength-bench-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: data) }
        let libraries = try await TestLibrary.shared.roots()
        // Pings only after 30 s of silence: the listeners stop reading for
        // part of each round.
        _ = try await ServerProcess.run(dataDirectory: data, libraries: libraries, pingInterval: 30) { server in
            let bench = try await ServerProcess.command(
                ["listeners", "--server", server.baseURL, "--listeners", "12", "--connecting", "12",
                 "--updates", "2", "--quiet-readers", "--patience", "60"], program: "wavelength-bench")
            #expect(bench.status == 0, "\(bench.output)")
            #expect(bench.output.contains("joined:   12 of 12"), "\(bench.output)")
            // Each update reached every socket while nobody read, and every
            // listener read it once reading was back on.
            #expect(bench.output.contains("update 1: reached 12 sockets (then 12 listeners read it)"), "\(bench.output)")
            #expect(bench.output.contains("update 2: reached 12 sockets (then 12 listeners read it)"), "\(bench.output)")
            #expect(bench.output.contains("24 deliveries at the sockets"), "\(bench.output)")
            #expect(bench.output.contains("; 0 missed"), "\(bench.output)")
            #expect(bench.output.contains("closed:   0 of 12"), "\(bench.output)")
        }
    }
}
