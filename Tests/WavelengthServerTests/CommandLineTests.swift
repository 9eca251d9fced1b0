import AsyncHTTPClient
import Foundation
import Testing
import WavelengthWire

/// `wavelength party` as a listener runs it: the real executable against
/// the real server, each a child process.
@Suite("The command line", .timeLimit(.minutes(5)))
struct CommandLineTests {
    /// `--source-port -1` turns live sources off; it used to be read as a
    /// missing value followed by an unknown option.
    @Test func aSourcePortOfMinusOneIsAValue() async throws {
        // A later option's refusal shows the port was taken.
        let off = try await ServerProcess.command(["serve", "--source-port", "-1", "--bcrypt-cost", "99"])
        #expect(off.status != 0)
        #expect(off.output.contains("--bcrypt-cost must be 4…16"), "\(off.output)")
        #expect(!off.output.contains("Missing value"), "\(off.output)")
        let wrong = try await ServerProcess.command(["serve", "--source-port", "-2"])
        #expect(wrong.output.contains("--source-port must be -1…65535"), "\(wrong.output)")
    }

    /// A refusal names where the value came from: the option or the environment.
    @Test func aDrainOutOfRangeNamesWhereItCameFrom() async throws {
        let fromEnvironment = try await ServerProcess.command(["serve"], environment: ["WAVELENGTH_DRAIN": "-1"])
        #expect(fromEnvironment.status != 0)
        #expect(fromEnvironment.output.contains("WAVELENGTH_DRAIN must be 0…120 seconds"), "\(fromEnvironment.output)")
        let notANumber = try await ServerProcess.command(["serve"], environment: ["WAVELENGTH_DRAIN": "soon"])
        #expect(notANumber.output.contains("WAVELENGTH_DRAIN must be a whole number of seconds"), "\(notANumber.output)")
        let fromOption = try await ServerProcess.command(["serve", "--drain", "121"], environment: ["WAVELENGTH_DRAIN": "5"])
        #expect(fromOption.output.contains("--drain must be 0…120 seconds"), "\(fromOption.output)")
    }

    /// With no `--data`, the data folder is `$HOME/.local/share/wavelength`
    /// for the `HOME` the command runs with (a service's, a test's), not the
    /// password file's home (which it used before, whatever `HOME` said).
    @Test func theDefaultDataFolderFollowsHome() async throws {
        let home = NSTemporaryDirectory() + "wavelength-home-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let music = home + "/music"
        try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: true)
        let scanned = try await ServerProcess.command(
            ["scan", music], environment: ["HOME": home, "XDG_DATA_HOME": "", "WAVELENGTH_DATA": ""])
        #expect(scanned.status == 0, "\(scanned.output)")
        #expect(FileManager.default.fileExists(atPath: home + "/.local/share/wavelength/wavelength.sqlite"))
        // XDG_DATA_HOME still comes first.
        let xdg = home + "/xdg"
        let there = try await ServerProcess.command(
            ["scan", music], environment: ["HOME": home, "XDG_DATA_HOME": xdg, "WAVELENGTH_DATA": ""])
        #expect(there.status == 0, "\(there.output)")
        #expect(FileManager.default.fileExists(atPath: xdg + "/wavelength/wavelength.sqlite"))
    }

    @Test func aBadHealthPortNamesWhereItCameFrom() async throws {
        let sameAsPort = try await ServerProcess.command(["serve", "--port", "8080", "--health-port", "8080"])
        #expect(sameAsPort.status != 0)
        #expect(sameAsPort.output.contains("--health-port must differ from --port"), "\(sameAsPort.output)")
        let outOfRange = try await ServerProcess.command(["serve"], environment: ["WAVELENGTH_HEALTH_PORT": "70000"])
        #expect(outOfRange.output.contains("WAVELENGTH_HEALTH_PORT must be 0…65535"), "\(outOfRange.output)")
        let notANumber = try await ServerProcess.command(["serve"], environment: ["WAVELENGTH_HEALTH_PORT": "eighty"])
        #expect(notANumber.output.contains("WAVELENGTH_HEALTH_PORT must be a port number"), "\(notANumber.output)")
    }

    @Test func aGuestThumbsTheSongPlayingAndTheOwnerSeesIt() async throws {
        let data = NSTemporaryDirectory() + "wavelength-cli-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: data) }
        let libraries = try await TestLibrary.shared.roots()
        // The owner's connection waits quietly while each client process
        // starts; on a loaded machine a 1 s liveness window would close it.
        _ = try await ServerProcess.run(dataDirectory: data, libraries: libraries, pingInterval: 30) { server in
            let signup = try JSONEncoder().encode(
                SignupRequest(handle: TestHandles.next("c"), displayName: "Cee", password: "correct horse", tokens: true))
            let signedUp = try await HTTPClient.shared.send(.POST, server.baseURL + "/api/auth/signup", body: signup)
            let auth = try JSONDecoder().decode(AuthResponse.self, from: signedUp.body)
            let station = try #require(auth.station?.id)
            let key = try #require(auth.tokens?.accessToken)
            let party = ["party", station, "--server", server.baseURL, "--guest", "Ann"]

            // A quiet station plays nothing to thumb: said plainly, and a failure.
            let quiet = try await ServerProcess.command(party + ["--thumb", "up"])
            #expect(quiet.status != 0)
            #expect(quiet.output.contains("Nothing is playing right now"), "\(quiet.output)")

            // The owner listens: the station is on the air, and the owner is
            // told of thumbs.
            let owner = LiveClient(port: server.port, path: "/api/stations/\(station)/live", token: key)
            #expect(try await owner.snapshot().timeline.current != nil)
            // The test songs last 3 s; held, the song stays the one playing
            // between the client reading it and its thumb arriving.
            try owner.send(.command(CommandRequest(id: "hold", command: .pause)))
            _ = try await owner.ack("hold")
            let up = try await ServerProcess.command(party + ["--thumb", "up"])
            #expect(up.status == 0, "\(up.output)")
            #expect(up.output.contains("Thumbs up for"), "\(up.output)")
            let counted = try await owner.next { message in
                if case .thumbs(_, let ups, _) = message { return ups == 1 }
                return false
            }
            guard case .thumbs(_, _, let downs) = counted else { return }
            #expect(downs == 0)

            // A thumb needs a name, and a made-up choice is refused before any call.
            let anonymous = try await ServerProcess.command(["party", station, "--server", server.baseURL, "--thumb", "down"])
            #expect(anonymous.status != 0)
            #expect(anonymous.output.contains("need a name"), "\(anonymous.output)")
            let sideways = try await ServerProcess.command(party + ["--thumb", "sideways"])
            #expect(sideways.status != 0)
            owner.close()
        }
    }
}
