import Foundation

/// What each output route of this device adds to the sound after the
/// player hands it over (a Bluetooth speaker's 100–300 ms, an HDMI TV's),
/// as a room calibration measured it. Kept per route, because the same
/// device through headphones and through a speaker are two different
/// delays; a route never measured has none.
public struct OutputDelays: Sendable, Equatable, Codable {
    public struct Measured: Sendable, Equatable, Codable {
        public var delayMs: Double
        /// When it was measured (Unix ms).
        public var measuredAt: Double
    }

    /// The most a correction may be (ms): past it, the measurement heard
    /// something else (an echo, another device), not a sound path.
    public static let maxDelayMs: Double = 2_000
    /// A device may sound slightly ahead of the meter (it stood nearer the
    /// microphone); further ahead than this is not a delay but a mistake.
    public static let minDelayMs: Double = -50
    /// Routes kept at most: the oldest measurement is forgotten past it.
    public static let maxRoutes = 32

    public private(set) var routes: [String: Measured] = [:]

    public init() {}

    /// The correction for `route` (ms), 0 when it was never measured.
    public func delay(for route: String) -> Double {
        routes[route]?.delayMs ?? 0
    }

    /// Adds a calibration's residual (the delay heard *with* the current
    /// correction applied) to the route's correction. An absurd total is
    /// refused, and the correction in place stays.
    public mutating func apply(residualMs: Double, to route: String, at now: Double) throws(OutputDelayError) {
        guard residualMs.isFinite else { throw .absurd(residualMs) }
        let total = delay(for: route) + residualMs
        guard total >= Self.minDelayMs, total <= Self.maxDelayMs else { throw .absurd(total) }
        guard !route.isEmpty, route.utf8.count <= 128 else { throw .badRoute }
        routes[route] = Measured(delayMs: total, measuredAt: now)
        if routes.count > Self.maxRoutes, let oldest = routes.min(by: { $0.value.measuredAt < $1.value.measuredAt })?.key {
            routes.removeValue(forKey: oldest)
        }
    }

    public mutating func forget(_ route: String) {
        routes.removeValue(forKey: route)
    }
}

public enum OutputDelayError: Error, Sendable, Equatable, CustomStringConvertible {
    case absurd(Double)
    case badRoute

    public var description: String {
        switch self {
        case .absurd(let ms) where !ms.isFinite:
            "The measurement gave no number: the correction in place stays."
        case .absurd(let ms):
            "A delay of \(Int(ms.rounded())) ms is no sound path's (\(Int(OutputDelays.minDelayMs)) to \(Int(OutputDelays.maxDelayMs)) ms): the correction in place stays."
        case .badRoute: "An output route is named by 1–128 bytes."
        }
    }
}

/// `OutputDelays` kept in a file of the user's own (0600), written whole
/// to a temporary file and renamed, so a crash leaves the old one.
public struct OutputDelayFile: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// What the file holds; none when it is missing or unreadable.
    public func load() -> OutputDelays {
        guard let data = FileManager.default.contents(atPath: path), data.count <= 64 * 1024,
            let delays = try? JSONDecoder().decode(OutputDelays.self, from: data)
        else { return OutputDelays() }
        return delays
    }

    public func save(_ delays: OutputDelays) throws {
        let data = try JSONEncoder().encode(delays)
        let temporary = path + ".tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown)
        }
        guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }
}
