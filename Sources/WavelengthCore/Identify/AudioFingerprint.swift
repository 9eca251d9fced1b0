/// A Chromaprint fingerprint: one 32-bit item for every `itemMillis` of
/// audio, each bit one of Chromaprint's filters over the chroma at that
/// moment. Two recordings of the same music differ in few bits.
public struct AudioFingerprint: Sendable, Equatable, Hashable, Codable {
    public var items: [UInt32]

    public init(items: [UInt32]) {
        self.items = items
    }

    /// Chromaprint's default algorithm: 4,096 samples with 2/3 overlap at
    /// 11,025 Hz, so 1,365.33 samples (123.8 ms) an item.
    public static let itemMillis = 4_096.0 / 3 / 11_025 * 1_000
    /// Tracks are fingerprinted this far from their start (what the index
    /// holds; a clip from later in a longer track is not found).
    public static let longestSeconds = 480

    /// Little-endian bytes, for storage.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(items.count * 4)
        for item in items {
            out += [UInt8(item & 0xFF), UInt8(item >> 8 & 0xFF), UInt8(item >> 16 & 0xFF), UInt8(item >> 24)]
        }
        return out
    }

    public init?(bytes: [UInt8]) {
        guard bytes.count % 4 == 0 else { return nil }
        items = stride(from: 0, to: bytes.count, by: 4).map { index in
            UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]) << 16
                | UInt32(bytes[index + 3]) << 24
        }
    }
}
