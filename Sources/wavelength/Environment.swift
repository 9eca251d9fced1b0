import Foundation

/// Settings can also come from the environment (WAVELENGTH_HOST, …), which
/// is handy under systemd or in a container.
enum Environment {
    static func value(_ name: String) -> String? {
        ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// WAVELENGTH_LIBRARY holds folders separated by ':'.
    static var libraryRoots: [String] {
        value("WAVELENGTH_LIBRARY")?.split(separator: ":").map(String.init) ?? []
    }
}
