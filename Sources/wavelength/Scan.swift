import ArgumentParser
import Foundation
import Logging
import WavelengthLibrary
import WavelengthServer
import WavelengthSQLite

struct Scan: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Scan music folders into the library index.")

    @Argument(help: "Folders to scan.")
    var folders: [String]

    @Option(help: "Data folder holding the database (env WAVELENGTH_DATA).")
    var data: String = Environment.value("WAVELENGTH_DATA") ?? ServerConfiguration.defaultDataDirectory

    @Flag(help: "Print a machine-readable summary.")
    var json = false

    func run() async throws {
        var logger = Logger(label: "wavelength.scan")
        logger.logLevel = json ? .error : .info
        try DataFolder.secure(data)
        let database = try AppDatabase.open(path: data + "/wavelength.sqlite")
        let roots = folders.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        let report = try await LibraryScanner(index: database, logger: logger).scan(roots: roots)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(
                "Scanned \(report.seen) files in \(String(format: "%.2f", report.elapsedSeconds)) s: \(report.added) added, \(report.updated) updated, \(report.moved) moved, \(report.unchanged) unchanged, \(report.removed) removed, \(report.failed) failed."
            )
            for failure in report.failures {
                print("  failed: \(failure.path): \(failure.reason)")
            }
        }
    }
}
