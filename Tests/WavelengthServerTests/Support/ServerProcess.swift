import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import WavelengthLibrary
import WavelengthWire

/// The real `wavelength` executable running as a child process, so a test
/// can kill it with SIGKILL like a crash or a power cut would.
final class ServerProcess {
    let process = Process()
    let port: Int
    let dataDirectory: String
    private let output = Pipe()

    init(dataDirectory: String, libraries: [String]) throws {
        self.dataDirectory = dataDirectory
        port = try Self.freePort()
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [bundle, bundle.deletingLastPathComponent()].map { $0.appendingPathComponent("wavelength").path }
        guard let executable = candidates.first(where: FileManager.default.isExecutableFile) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "build the wavelength executable first"])
        }
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments =
            ["serve", "--data", dataDirectory, "--port", String(port), "--ping-interval", "1", "--bcrypt-cost", "4"]
            + libraries.flatMap { ["--library", $0] }
        process.standardOutput = output
        process.standardError = output
    }

    /// Starts the server and returns once it logs that it is listening.
    func start() async throws {
        try ProcessLauncher.run(process)
        let handle = output.fileHandleForReading
        var seen = ""
        while !seen.contains("is on the air") {
            let chunk = handle.availableData
            guard !chunk.isEmpty else { throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: seen]) }
            seen += String(decoding: chunk, as: UTF8.self)
        }
        // Keep draining the log so the child never blocks on a full pipe.
        let drain = output.fileHandleForReading
        Thread.detachNewThread {
            while !drain.availableData.isEmpty {}
        }
    }

    func kill9() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRINUSE) }
        return Int(UInt16(bigEndian: address.sin_port))
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
