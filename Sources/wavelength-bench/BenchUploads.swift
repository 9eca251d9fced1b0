import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import WavelengthClient
import WavelengthLibrary

/// Uploads through a running server, end to end: each file sent over
/// HTTP, streamed to disk, read (tags, length), decoded once for loudness,
/// tempo and a fingerprint, checked against the library for the same
/// recording, and stored. One uploader, then two at once.
struct BenchUploads: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "uploads", abstract: "Upload throughput over HTTP.")

    @Option(help: "How many different songs each uploader sends.")
    var files: Int = 10

    @Option(help: "Each song's length in seconds (MP3 at 192 kbps).")
    var seconds: Int = 180

    func validate() throws {
        guard (1...200).contains(files) else { throw ValidationError("--files must be 1…200") }
        guard (5...900).contains(seconds) else { throw ValidationError("--seconds must be 5…900") }
    }

    func run() async throws {
        let folder = NSTemporaryDirectory() + "wavelength-bench-uploads-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let ffmpeg = try FFmpegCommand.locate()
        let generating = Date()
        // Seeded noise under a tone: every song its own recording, so none is
        // taken for a copy of another.
        var songs: [String] = []
        for n in 0..<(files * 3) {
            let path = folder + "/song-\(n).mp3"
            try await ffmpeg.run([
                "-f", "lavfi", "-i", "anoisesrc=d=\(seconds):c=pink:seed=\(n + 1):a=0.3",
                "-f", "lavfi", "-i", "sine=frequency=\(200 + n * 7):duration=\(seconds)",
                "-filter_complex", "amix=inputs=2", "-ac", "2", "-c:a", "libmp3lame", "-b:a", "192k", path,
            ])
            songs.append(path)
        }
        let bytes = try songs.map { Int64(try Data(contentsOf: URL(fileURLWithPath: $0)).count) }
        print("generated \(songs.count) songs of \(seconds) s (\(bytes[0] >> 10) KB each) in \(String(format: "%.1f", Date().timeIntervalSince(generating))) s")

        try await BenchServer.run(extraArguments: ["--no-analysis"]) { server in
            let first = try await Self.uploader(server.url)
            try await Self.measure("one uploader", server.url, [(first, Array(songs[0..<files]))])
            let second = try await Self.uploader(server.url), third = try await Self.uploader(server.url)
            try await Self.measure(
                "two at once ", server.url, [(second, Array(songs[files..<(2 * files)])), (third, Array(songs[(2 * files)...]))])
        }
    }

    private static func uploader(_ url: String) async throws -> String {
        let account = AccountClient(serverURL: url)
        _ = try await account.signUp(
            handle: "up\(UInt32.random(in: 0...UInt32.max))", displayName: "Uploader", password: "bench password")
        guard let token = await account.accessToken() else { throw BenchError("no token for the uploader") }
        return token
    }

    private static func measure(_ label: String, _ url: String, _ work: [(token: String, paths: [String])]) async throws {
        let started = DispatchTime.now().uptimeNanoseconds
        let results = try await withThrowingTaskGroup(of: [(Double, Int)].self) { group in
            for (token, paths) in work {
                group.addTask {
                    var each: [(Double, Int)] = []
                    for path in paths {
                        let data = try Data(contentsOf: URL(fileURLWithPath: path))
                        var request = HTTPClientRequest(url: url + "/api/uploads?name=\((path as NSString).lastPathComponent)")
                        request.method = .POST
                        request.headers.add(name: "Authorization", value: "Bearer \(token)")
                        request.headers.add(name: "Content-Type", value: "audio/mpeg")
                        request.body = .bytes(ByteBuffer(bytes: data))
                        let begun = DispatchTime.now().uptimeNanoseconds
                        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
                        _ = try await response.body.collect(upTo: 1 << 20)
                        guard response.status == .created else { throw BenchError("an upload answered \(response.status)") }
                        each.append((Double(DispatchTime.now().uptimeNanoseconds - begun) / 1e6, data.count))
                    }
                    return each
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let total = results.map(\.1).reduce(0, +)
        let times = results.map(\.0).sorted()
        print(
            "\(label): \(results.count) files, \(total >> 20) MB in \(String(format: "%.2f", seconds)) s: "
                + "\(String(format: "%.1f", Double(total) / 1_048_576 / seconds)) MB/s, \(String(format: "%.2f", Double(results.count) / seconds)) files/s; "
                + "per file p50 \(String(format: "%.0f", times[times.count / 2])) ms, max \(String(format: "%.0f", times.last ?? 0)) ms")
    }
}
