import Foundation
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

    /// Runs a tool to completion and collects what it printed. The tools run
    /// here print little to stderr, so it is read after stdout.
    static func run(_ executable: String, _ arguments: [String]) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus,
            stdout: stdout,
            stderr: String(decoding: stderr, as: UTF8.self)
        )
    }

    /// Decodes the QR code in a PNG with `zbarimg --raw -q`, through a
    /// temporary file, and returns the text it read (without the newline
    /// zbarimg ends it with).
    static func zbarDecode(png: [UInt8]) throws -> String {
        let zbarimg = try #require(zbarimg, "zbarimg (Debian's zbar-tools) is not installed")
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("wavelength-qr-\(UUID().uuidString).png")
        try Data(png).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try run(zbarimg, ["--raw", "-q", file.path])
        try #require(output.status == 0, "zbarimg exited \(output.status): \(output.stderr)")
        var text = String(decoding: output.stdout, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}
