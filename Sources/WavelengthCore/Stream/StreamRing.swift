/// The recent bytes of one station's stream, shared by all its listeners:
/// the encoder appends chunks, and each listener reads on from its own
/// position. It holds at most `capacity` bytes (whole chunks); a listener
/// whose position has been dropped from it is too far behind to follow and
/// is let go, so a slow listener never slows the others or grows memory.
///
/// A new listener starts `burst` bytes back (Icecast's burst-on-connect,
/// 64 KiB by default), at a chunk boundary, so a player fills its buffer
/// at once and starts playing.
public struct StreamRing<Chunk: Sendable>: Sendable {
    public struct Stored: Sendable {
        /// Where the chunk starts in the stream (bytes since the encoder began).
        public let offset: UInt64
        public let size: Int
        public let chunk: Chunk
    }

    /// What a listener at some position gets.
    public enum Read: Sendable {
        /// The chunks from the position on, the first one `skip` bytes in.
        case chunks([Stored], skip: Int)
        /// Nothing new yet.
        case upToDate
        /// The position is no longer held: the listener fell too far behind.
        case behind
    }

    public let capacity: Int
    private var stored: [Stored] = []
    /// The first live element of `stored` (dropped ones are compacted away
    /// now and then, not on every append).
    private var head = 0
    private var heldBytes = 0
    /// The stream's length so far: where the next chunk starts.
    public private(set) var end: UInt64 = 0

    public init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    /// The first byte still held.
    public var start: UInt64 { head < stored.count ? stored[head].offset : end }

    public var bytesHeld: Int { heldBytes }

    public mutating func append(_ chunk: Chunk, size: Int) {
        guard size > 0 else { return }
        stored.append(Stored(offset: end, size: size, chunk: chunk))
        end += UInt64(size)
        heldBytes += size
        // Keep the newest chunk even if it alone is larger than the capacity.
        while heldBytes > capacity, head < stored.count - 1 {
            heldBytes -= stored[head].size
            head += 1
        }
        if head > 64, head * 2 > stored.count {
            stored.removeFirst(head)
            head = 0
        }
    }

    /// Where a new listener starts: the latest chunk boundary at least
    /// `burst` bytes before the end, or the oldest one held.
    public func joinPosition(burst: Int) -> UInt64 {
        guard head < stored.count else { return end }
        var index = stored.count - 1
        while index > head, end - stored[index].offset < UInt64(max(0, burst)) { index -= 1 }
        return stored[index].offset
    }

    /// Everything held from `position` on.
    public func read(from position: UInt64) -> Read {
        guard position < end else { return .upToDate }
        guard position >= start else { return .behind }
        // The chunk holding `position`: the last one starting at or before it.
        var low = head, high = stored.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if stored[middle].offset <= position { low = middle } else { high = middle - 1 }
        }
        return .chunks(Array(stored[low...]), skip: Int(position - stored[low].offset))
    }
}
