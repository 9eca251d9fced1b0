import Foundation
import Logging
import WavelengthClient
import WavelengthCore

/// The stations announced on this network, for `wavelength tune`.
enum NearbyList {
    /// Browses for `seconds`, then answers what was found.
    static func find(seconds: Double) async throws -> [NearbyStation] {
        var logger = Logger(label: "wavelength.nearby")
        logger.logLevel = .warning
        let browser = NearbyStations(logger: logger)
        try await Task.sleep(for: .milliseconds(Int(max(0.2, seconds) * 1000)))
        return browser.stations
    }

    /// One line per station, with the command that tunes in to it.
    static func print(_ stations: [NearbyStation], offering: Bool) {
        guard !stations.isEmpty else {
            Swift.print("No stations found on this network (is avahi-daemon running here?).")
            return
        }
        Swift.print("On this network:")
        for (index, station) in stations.enumerated() {
            let announced = station.announcement
            let frequency = announced.frequency.map { "\($0) FM" } ?? "—"
            let mode = announced.mode == .dj ? "" : " · \(announced.mode.rawValue)"
            let code = announced.needsCode ? " · access code needed" : ""
            Swift.print("  \(index + 1). \(announced.name)  \(frequency)\(mode)\(code)  \(station.serverURL)")
            if offering && stations.count > 1 {
                Swift.print("       wavelength tune --server \(station.serverURL) \(announced.stationID)")
            }
        }
    }
}
