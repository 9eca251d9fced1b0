import ArgumentParser
import AsyncHTTPClient
import Foundation
import WavelengthTestSupport
import WavelengthWire

/// Music copied into a running server's library: the time from a file
/// landing in the folder (moved in whole, as copiers do) to its title
/// answering a search. One file at a time, against `wavelength serve`
/// watching its folder.
struct BenchWatch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch", abstract: "Time from a file landing in the library folder to its being found by search.")

    @Option(help: "How many files land, one after another.")
    var files: Int = 100

    func validate() throws {
        guard (1...1_000).contains(files) else { throw ValidationError("--files must be 1…1000") }
    }

    func run() async throws {
        let folder = NSTemporaryDirectory() + "wavelength-bench-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let library = folder + "/library", staged = folder + "/staged"
        for path in [library, staged] { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        let generating = Date()
        try await SyntheticLibrary.generate(count: files, in: staged)
        let made = try FileManager.default.subpathsOfDirectory(atPath: staged).filter { !$0.hasSuffix("/") && $0.contains(".") }.sorted()
        print("generated \(made.count) files in \(String(format: "%.1f", Date().timeIntervalSince(generating))) s")
        try await BenchServer.run(extraArguments: ["--library", library, "--no-analysis"]) { server in
            var latencies: [Double] = []
            for (index, file) in made.enumerated() {
                let before = try await Self.trackCount(server)
                let landed = DispatchTime.now().uptimeNanoseconds
                try FileManager.default.moveItem(atPath: staged + "/" + file, toPath: library + "/\(index)-" + (file as NSString).lastPathComponent)
                // Asked every 5 ms: a search is what a listener would do.
                while try await Self.trackCount(server) == before {
                    try await Task.sleep(for: .milliseconds(5))
                }
                latencies.append(Double(DispatchTime.now().uptimeNanoseconds - landed) / 1_000_000)
            }
            latencies.sort()
            print("landed:   \(latencies.count) files, one at a time; in the index (search reads the same commit) after p50 \(String(format: "%.0f", latencies[latencies.count / 2])) ms, "
                + "p95 \(String(format: "%.0f", latencies[min(latencies.count - 1, latencies.count * 95 / 100)])) ms, max \(String(format: "%.0f", latencies.last ?? 0)) ms "
                + "(the watch waits 300 ms after a change for the rest of a copy)")
        }
    }

    /// The library's size as `/health` reports it, read from the index.
    private static func trackCount(_ server: BenchServer) async throws -> Int {
        let (_, body) = try await BenchDJ.send(.GET, server.url + "/health", token: "")
        return (try JSONSerialization.jsonObject(with: body) as? [String: Any])?["tracks"] as? Int ?? -1
    }
}
