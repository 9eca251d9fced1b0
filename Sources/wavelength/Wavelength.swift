import ArgumentParser
import WavelengthServer

@main
struct Wavelength: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wavelength",
        abstract: "Self-hosted social radio: everyone gets a station.",
        subcommands: [Serve.self, Scan.self, Tune.self, PartyCommand.self, Keys.self, MigrateDB.self, Backup.self, Restore.self, Admin.self],
        defaultSubcommand: Serve.self)

    /// ArgumentParser's own `main`, after the one tuning that must come
    /// before any other thread starts (`MallocArenas`).
    static func main() async {
        MallocArenas.limit()
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
