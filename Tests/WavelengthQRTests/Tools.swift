import Foundation
import Subprocess
import Testing

/// Finds and runs the command-line tools some tests check against.
enum Tools {
    /// The full path of an executable on PATH, or nil.
    static func path(of name: String) -> String? {
        let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in searchPath.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// zbarimg, from Debian's zbar-tools.
    static let zbarimg = path(of: "zbarimg")
    /// The qrencode command-line tool, from Debian's qrencode.
    static let qrencode = path(of: "qrencode")

    struct Output {
        var status: Int32
        var stdout: Data
        var stderr: String
    }

    /// Runs a tool found on PATH to completion and collects what it printed.
    /// swift-subprocess reads both pipes while the tool runs and waits for its
    /// exit without holding a thread of the cooperative pool.
    static func run(_ name: String, _ arguments: [String]) async throws -> Output {
        let result = try await Subprocess.run(
            .name(name),
            arguments: Arguments(arguments),
            input: .none,
            output: .bytes(limit: 1 << 20),
            error: .string(limit: 1 << 16)
        )
        let status: Int32 =
            switch result.terminationStatus {
            case .exited(let code): code
            case .signaled(let signal): 128 + signal
            }
        return Output(status: status, stdout: Data(result.standardOutput), stderr: result.standardError)
    }

    /// Decodes the QR code in a PNG with `zbarimg --raw -q`, through a
    /// temporary file, and returns the text it read (without the newline
    /// zbarimg ends it with).
    static func zbarDecode(png: [UInt8]) async throws -> String {
        try #require(zbarimg != nil, "zbarimg (Debian's zbar-tools) is not installed")
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("wavelength-qr-\(UUID().uuidString).png")
        try Data(png).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try await run("zbarimg", ["--raw", "-q", file.path])
        try #require(output.status == 0, "zbarimg exited \(output.status): \(output.stderr)")
        var text = String(decoding: output.stdout, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}
