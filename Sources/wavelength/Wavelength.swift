import ArgumentParser

@main
struct Wavelength: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wavelength",
        abstract: "Self-hosted social radio: everyone gets a station.",
        subcommands: [Serve.self, Scan.self, Tune.self, PartyCommand.self, Keys.self],
        defaultSubcommand: Serve.self)
}
