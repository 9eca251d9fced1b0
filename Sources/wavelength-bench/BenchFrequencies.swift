import ArgumentParser
import Foundation
import WavelengthCore
import WavelengthSQLite

/// 100,000 stations in a real SQLite file: how long each creation takes
/// while the band fills and after it is full (when the quietest station
/// gives its code back), how many codes are held at the end, and what
/// tuning by frequency and listing the dial cost.
struct BenchFrequencies: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "frequencies", abstract: "Frequency allocation with 100,000 stations.")

    @Option(help: "How many stations to create.")
    var stations: Int = 100_000

    func run() async throws {
        let folder = NSTemporaryDirectory() + "wavelength-bench-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let database = try AppDatabase.open(path: folder + "/bench.sqlite")
        let band = FrequencyBand.fm
        print("band: \(band.count) codes; \(stations) stations")

        var latencies: [Double] = []
        latencies.reserveCapacity(stations)
        var reclaimed = 0
        let start = Date()
        for n in 0..<stations {
            // A station goes quiet a minute after the one before, so the
            // band always has a quietest station to take back from.
            let record = StationRecord(
                id: "s\(n)", name: "Station \(n)", owner: "bench", ownerID: nil, frequency: nil,
                visibility: n.isMultiple(of: 5) ? .code : .public, quietSince: Int64(n) * 60_000,
                createdAt: Int64(n) * 60_000)
            let began = DispatchTime.now().uptimeNanoseconds
            let saved = try await database.insertStation(
                record, now: Int64(n) * 60_000, band: band, ownerLimit: nil)
            latencies.append(Double(DispatchTime.now().uptimeNanoseconds - began) / 1_000_000)
            if saved.reclaimedFrom != nil { reclaimed += 1 }
        }
        let elapsed = Date().timeIntervalSince(start)
        print("created \(stations) stations in \(format(elapsed)) s = \(rate(stations, elapsed)) stations/s")
        let filling = Array(latencies.prefix(min(band.count, stations)))
        let full = Array(latencies.dropFirst(band.count))
        print("  while the band fills (\(filling.count)): \(summary(filling))")
        if !full.isEmpty {
            print("  with the band full (\(full.count)), taking a quiet station's code: \(summary(full))")
        }
        print("  codes taken back from quiet stations: \(reclaimed)")

        let all = try await database.allStations()
        let held = all.compactMap(\.frequency)
        print("stations: \(all.count); holding a code: \(held.count) (\(Set(held).count) distinct)")

        var lookups: [Double] = []
        var rng = SeededRandom(seed: 7)
        for _ in 0..<2_000 {
            let code = held.randomElement(using: &rng)!
            let began = DispatchTime.now().uptimeNanoseconds
            _ = try await database.station(frequency: code)
            lookups.append(Double(DispatchTime.now().uptimeNanoseconds - began) / 1_000_000)
        }
        print("tune by frequency (2000 lookups): \(summary(lookups))")
        var listings: [Double] = []
        for _ in 0..<200 {
            let began = DispatchTime.now().uptimeNanoseconds
            _ = try await database.listedStations(limit: 100)
            listings.append(Double(DispatchTime.now().uptimeNanoseconds - began) / 1_000_000)
        }
        print("dial listing (200 reads of the 100 + 100 listed): \(summary(listings))")
    }

    private func summary(_ values: [Double]) -> String {
        let sorted = values.sorted()
        func at(_ p: Double) -> String { format(sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]) }
        return "p50 \(at(0.5)) ms, p99 \(at(0.99)) ms, max \(format(sorted.last ?? 0)) ms"
    }
}
