import Dispatch

/// A dedicated thread the blocking decode and meter loops run on, never
/// Swift's cooperative pool (two threads here, which the server needs for
/// playback and requests). One file at a time per lane: the background
/// analysis opens one lane per core it may use.
public struct AnalysisLane: Sendable {
    let queue: DispatchQueue

    public init(label: String) {
        queue = DispatchQueue(label: label, qos: .utility)
    }

    /// For a single meter asked on demand (a listener's clip to identify),
    /// apart from the background lanes so it never waits behind a whole file.
    public static let onDemand = AnalysisLane(label: "wavelength.analysis.on-demand")
}
