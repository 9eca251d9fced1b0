import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Subprocess
import WavelengthLibrary
import WavelengthWire

/// The real `wavelength` executable running as a child process, so a test
/// can kill it with SIGKILL like a crash or a power cut would.
///
/// The child runs through swift-subprocess: its log is read while it runs
/// (so it never blocks on a full pipe) and its exit is awaited, both without
/// holding a thread of the cooperative pool.
final class ServerProcess: Sendable {
    let port: Int
    let dataDirectory: String
    let log: OutputLog
    private let signal: @Sendable (Signal) -> Void

    var baseURL: String { "http://127.0.0.1:\(port)" }

    private init(port: Int, dataDirectory: String, log: OutputLog, signal: @escaping @Sendable (Signal) -> Void) {
        self.port = port
        self.dataDirectory = dataDirectory
        self.log = log
        self.signal = signal
    }

    /// Starts the server, runs `body` once it logs that it is listening, then
    /// stops it with SIGTERM if `body` left it running. Answers `body`'s result
    /// and how the server exited.
    /// `pingInterval`: seconds of a client's silence before the server pings
    /// it (and as many again before it lets it go).
    static func run<Answer: Sendable>(
        dataDirectory: String, libraries: [String], pingInterval: Int = 1, mdns: Bool = false,
        environment: [String: String] = [:], extraArguments: [String] = [],
        _ body: (ServerProcess) async throws -> Answer
    ) async throws -> (answer: Answer, exit: TerminationStatus) {
        // Port 0: the server binds a free port and says which in its log. A
        // port picked free here and bound there later could be taken in
        // between (a fresh-clone run lost that race under load).
        let arguments =
            ["serve", "--data", dataDirectory, "--port", "0", "--ping-interval", String(pingInterval),
             "--bcrypt-cost", "4", "--no-analysis", "--source-port", "0",
             "--signups-per-hour", "100000", "--guests-per-hour", "100000"]
            + libraries.flatMap { ["--library", $0] } + (mdns ? [] : ["--no-mdns"]) + extraArguments
        let outcome = try await Subprocess.run(
            ChildProcess.executable(atPath: try executable()),
            arguments: Arguments(arguments),
            environment: .inherit.updating(
                Dictionary(uniqueKeysWithValues: environment.map { (Environment.Key(stringLiteral: $0.key), $0.value) })),
            input: .none,
            output: .sequence,
            error: .combinedWithOutput
        ) { execution in
            let log = OutputLog()
            return try await withThrowingTaskGroup(of: Void.self, returning: Answer.self) { group in
                // Drains the log until the server exits.
                group.addTask {
                    defer { log.end() }
                    for try await line in execution.standardOutput.strings() { log.append(line) }
                }
                let signal: @Sendable (Signal) -> Void = { signal in try? execution.send(signal: signal) }
                guard await log.wait(until: { $0.contains("is on the air") }), let port = Self.port(in: log.text) else {
                    signal(.terminate)
                    try await group.waitForAll()
                    throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "the server exited:\n\(log.text)"])
                }
                let server = ServerProcess(port: port, dataDirectory: dataDirectory, log: log, signal: signal)
                do {
                    let answer = try await body(server)
                    await server.stop()
                    try await group.waitForAll()
                    return answer
                } catch {
                    await server.stop()
                    throw error
                }
            }
        }
        return (outcome.closureResult, outcome.terminationStatus)
    }

    /// Sends the server a signal (SIGSTOP and SIGCONT: a node that pauses).
    func send(_ signal: Signal) { self.signal(signal) }

    /// Kills the server with SIGKILL and returns once it is gone.
    func kill9() async {
        signal(.kill)
        _ = await log.wait(until: { _ in false })
    }

    /// Asks the server to shut down (SIGTERM) and returns once it is gone.
    func stop() async {
        guard !log.hasEnded else { return }
        signal(.terminate)
        _ = await log.wait(until: { _ in false })
    }

    /// Runs `wavelength` (or `program`, another executable of the package:
    /// `wavelength-bench`) with `arguments` (a command-line client of this
    /// server, say) to its end, and answers its exit code and everything it
    /// printed, both pipes read while it runs.
    static func command(
        _ arguments: [String], program: String = "wavelength", environment: [String: String] = [:]
    ) async throws -> (status: Int32, output: String) {
        let result = try await Subprocess.run(
            ChildProcess.executable(atPath: try executable(program)),
            arguments: Arguments(arguments),
            environment: .inherit.updating(
                Dictionary(uniqueKeysWithValues: environment.map { (Environment.Key(stringLiteral: $0.key), $0.value) })),
            input: .none,
            output: .string(limit: 1 << 16),
            error: .string(limit: 1 << 16)
        )
        let status: Int32 =
            switch result.terminationStatus {
            case .exited(let code): code
            case .signaled(let signal): 128 + signal
            }
        return (status, result.standardOutput + result.standardError)
    }

    /// A binary of the package (`wavelength` by default) built next to the test bundle.
    static func executable(_ program: String = "wavelength") throws -> String {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [bundle, bundle.deletingLastPathComponent()].map { $0.appendingPathComponent(program).path }
        guard let executable = candidates.first(where: FileManager.default.isExecutableFile) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "build the \(program) executable first"])
        }
        return executable
    }

    /// The port in the server's "Wavelength is on the air at http://host:port" line.
    static func port(in log: String) -> Int? {
        guard let line = log.split(separator: "\n").first(where: { $0.contains("is on the air at http://") }),
            let address = line.split(separator: "http://").last?.split(separator: " ").first,
            let port = address.split(separator: ":").last.flatMap({ Int($0) })
        else { return nil }
        return port
    }
}

extension HTTPClient {
    /// A request to a server process; `key` is a bearer access token.
    func send(_ method: HTTPMethod, _ url: String, body: Data? = nil, key: String? = nil) async throws -> (
        status: HTTPResponseStatus, body: Data
    ) {
        var request = HTTPClientRequest(url: url)
        request.method = method
        if let key { request.headers.add(name: "Authorization", value: "Bearer \(key)") }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response = try await execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        return (response.status, Data(buffer: bytes))
    }
}
