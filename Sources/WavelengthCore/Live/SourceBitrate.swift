/// Holds a live source to a bitrate: bytes are counted over a sliding
/// window, and a source that sends more than the cap for the window (plus
/// an allowance for the burst some software sends as it connects) is over.
/// Pure: the caller says when bytes arrived.
public struct SourceBitrate: Sendable {
    /// Bytes a second the source may average.
    public var capBytesPerSecond: Int
    public var windowMillis: EpochMillis
    public var burstBytes: Int
    private var buckets: [(second: EpochMillis, bytes: Int)] = []

    /// 320 kbps, MP3's highest, plus half again for the container's framing.
    public init(capKbps: Int = 480, windowMillis: EpochMillis = 10_000, burstBytes: Int = 256 * 1024) {
        capBytesPerSecond = capKbps * 1000 / 8
        self.windowMillis = windowMillis
        self.burstBytes = burstBytes
    }

    /// Counts `bytes` arriving at `now`; whether the source is now over the cap.
    public mutating func add(_ bytes: Int, at now: EpochMillis) -> Bool {
        let second = now / 1000
        if let last = buckets.last, last.second == second {
            buckets[buckets.count - 1].bytes += bytes
        } else {
            buckets.append((second, bytes))
        }
        let oldest = (now - windowMillis) / 1000
        buckets.removeAll { $0.second <= oldest }
        let total = buckets.reduce(0) { $0 + $1.bytes }
        return total > capBytesPerSecond * Int(windowMillis / 1000) + burstBytes
    }
}
