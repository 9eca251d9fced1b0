import ArgumentParser
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import WavelengthClient
import WavelengthCore
import WavelengthWire

/// Which server and who you are there, for the commands that act as a
/// listener (`tune`, `party`).
struct StationOptions: ParsableArguments {
    @Option(help: "The server's address (env WAVELENGTH_SERVER).")
    var server: String = Environment.value("WAVELENGTH_SERVER") ?? "http://127.0.0.1:8080"

    @Option(help: "Sign in as this handle (password from env WAVELENGTH_PASSWORD), e.g. for a private station.")
    var handle: String?

    @Option(help: "Join as a guest with this display name.")
    var guest: String?

    /// Whether a person was named (a user or a guest).
    var named: Bool { handle != nil || guest != nil }

    /// A signed-in or guest session, when asked for. The password comes from
    /// the environment so it never shows in the process list.
    func signIn() async throws -> AccountClient? {
        if let handle {
            guard let password = Environment.value("WAVELENGTH_PASSWORD") else {
                throw ValidationError("Set WAVELENGTH_PASSWORD to sign in as \(handle).")
            }
            let account = AccountClient(serverURL: server)
            try await account.logIn(handle: handle, password: password)
            return account
        }
        if let guest {
            let account = AccountClient(serverURL: server)
            try await account.joinAsGuest(displayName: guest)
            return account
        }
        return nil
    }

    /// A frequency ("107.3") is looked up; anything else is taken as a station id.
    func stationID(for station: String) async throws -> String {
        guard FrequencyDial.isWellFormed(station) else { return station }
        let url = URL(string: "\(server)/api/frequencies/\(station)")!
        let (data, response) = try await URLSession.shared.data(from: url)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw ValidationError("Nothing is broadcasting on \(station) at \(server).")
        }
        return try JSONDecoder().decode(StationView.self, from: data).id
    }
}
