import Testing
import WavelengthCore

@Suite("Stream ring")
struct StreamRingTests {
    /// A ring of 4 KiB chunks named by their number.
    static func ring(chunks: Int, capacity: Int = 512 * 1_024) -> StreamRing<Int> {
        var ring = StreamRing<Int>(capacity: capacity)
        for number in 0..<chunks { ring.append(number, size: 4_096) }
        return ring
    }

    @Test func itHoldsNoMoreThanItsCapacityAndDropsTheOldestWholeChunks() {
        let ring = Self.ring(chunks: 1_000)
        #expect(ring.bytesHeld <= ring.capacity)
        #expect(ring.bytesHeld > ring.capacity - 4_096)
        #expect(ring.end == 1_000 * 4_096)
        #expect(ring.start == ring.end - UInt64(ring.bytesHeld))
        #expect(ring.start % 4_096 == 0)
    }

    @Test func aNewListenerStartsABurstBackAtAChunkBoundary() {
        let ring = Self.ring(chunks: 1_000)
        let position = ring.joinPosition(burst: 65_536)
        #expect(ring.end - position >= 65_536)
        #expect(ring.end - position < 65_536 + 4_096)
        #expect(position % 4_096 == 0)
        // Early in a stream, the burst is whatever there is.
        #expect(Self.ring(chunks: 3).joinPosition(burst: 65_536) == 0)
        #expect(StreamRing<Int>(capacity: 1_024).joinPosition(burst: 65_536) == 0)
    }

    @Test func aListenerReadsOnFromItsPosition() {
        let ring = Self.ring(chunks: 1_000)
        let position = ring.end - 10_000
        guard case .chunks(let chunks, let skip) = ring.read(from: position) else {
            Issue.record("expected chunks")
            return
        }
        #expect(chunks.map(\.chunk) == [997, 998, 999])
        #expect(chunks[0].offset + UInt64(skip) == position)
        let bytes = chunks.reduce(0) { $0 + $1.size } - skip
        #expect(bytes == 10_000)
        guard case .upToDate = ring.read(from: ring.end) else {
            Issue.record("a listener at the end has nothing new")
            return
        }
    }

    @Test func aListenerWhosePositionWasDroppedIsBehind() {
        var ring = Self.ring(chunks: 10)
        let slow = ring.joinPosition(burst: 0)
        for number in 10..<1_000 { ring.append(number, size: 4_096) }
        guard case .behind = ring.read(from: slow) else {
            Issue.record("a position no longer held is behind")
            return
        }
        guard case .chunks(let chunks, 0) = ring.read(from: ring.start) else {
            Issue.record("the oldest held position still reads")
            return
        }
        #expect(chunks.count * 4_096 == ring.bytesHeld)
    }

    @Test func aChunkLargerThanTheCapacityIsStillHeld() {
        var ring = StreamRing<Int>(capacity: 1_000)
        ring.append(1, size: 500)
        ring.append(2, size: 5_000)
        #expect(ring.start == 500)
        guard case .chunks(let chunks, 0) = ring.read(from: 500) else {
            Issue.record("the newest chunk is held")
            return
        }
        #expect(chunks.map(\.chunk) == [2])
    }
}
