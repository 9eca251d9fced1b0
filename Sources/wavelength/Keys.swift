import ArgumentParser
import Foundation
import WavelengthServer

struct Keys: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The server's signing keys (in <data>/keys, never in the database).",
        subcommands: [KeysRotate.self])
}

/// Adds a new signing key: tokens are signed with it from the next start on,
/// the previous key still verifies the tokens already out, older ones stop.
struct KeysRotate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate", abstract: "Add a new signing key; it takes effect when the server next starts.")

    @Option(help: "Data folder (env WAVELENGTH_DATA).")
    var data: String = Environment.value("WAVELENGTH_DATA") ?? ServerConfiguration.defaultDataDirectory

    func run() async throws {
        try DataFolder.secure(data)
        guard var keys = try SigningKeys.read(dataDirectory: data) else {
            throw ValidationError("No keys in \(data)/keys yet: start the server once first.")
        }
        keys.rotate(now: Int64(Date().timeIntervalSince1970 * 1000))
        try keys.write(dataDirectory: data)
        print("New signing key \(keys.signing.id); \(keys.jwt.count) keys verify. Restart the server to sign with it.")
    }
}
