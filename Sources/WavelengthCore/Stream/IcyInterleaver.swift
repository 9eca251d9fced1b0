/// Where ICY metadata goes in one listener's stream: after every `interval`
/// bytes of audio, a metadata block (Icecast's `icy-metaint`, 16,000 by
/// default). As Icecast does, the first block a listener gets names what
/// plays; after that a block is sent only when the title changed, and a
/// single 0 byte otherwise.
///
/// It plans rather than copies: the server writes the audio ranges as
/// slices of the buffers every listener shares, and the blocks between them.
public struct IcyInterleaver: Sendable {
    public static let defaultInterval = 16_000
    /// The most a listener may ask for; Icecast allows any, players use 8192–16000.
    public static let intervals = 256...65_536

    public enum Piece: Sendable, Equatable {
        /// These bytes of the audio handed to `plan`.
        case audio(Range<Int>)
        case metadata(IcyMetadata)
    }

    public let interval: Int
    /// Audio bytes still to go before the next block.
    private var untilMetadata: Int
    private var lastSent: IcyMetadata?

    public init(interval: Int = Self.defaultInterval) {
        precondition(Self.intervals.contains(interval), "an ICY interval must be 256…65536 bytes")
        self.interval = interval
        self.untilMetadata = interval
    }

    /// The pieces that carry `count` more bytes of audio to this listener,
    /// with `current` as the title of what plays now.
    public mutating func plan(audioBytes count: Int, current: IcyMetadata) -> [Piece] {
        var pieces: [Piece] = []
        var start = 0
        while count - start >= untilMetadata {
            let end = start + untilMetadata
            if end > start { pieces.append(.audio(start..<end)) }
            if current == lastSent {
                pieces.append(.metadata(.unchanged))
            } else {
                pieces.append(.metadata(current))
                lastSent = current
            }
            start = end
            untilMetadata = interval
        }
        if start < count {
            pieces.append(.audio(start..<count))
            untilMetadata -= count - start
        }
        return pieces
    }
}
