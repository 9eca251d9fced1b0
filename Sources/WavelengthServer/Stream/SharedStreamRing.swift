import NIOCore
import Synchronization
import WavelengthCore

/// A stream's recent output (`StreamRing`), read by its listeners on their
/// connections' event loops while the stream's actor appends to it.
///
/// A lock, not the actor: a listener reads what it missed the moment its
/// socket can take more, from its event loop, without a task or a hop.
/// Appends and reads only copy a few references (a chunk's bytes are
/// shared, never copied), so the lock is held for microseconds.
final class SharedStreamRing: Sendable {
    /// Some of the encoder's output, with the title it was made under. A
    /// listener behind the live edge gets the title of the audio it is
    /// sent, as Icecast ties metadata to its place in the stream: with the
    /// title of the moment instead, one who fell behind across a short
    /// song (a 4 s voice clip) never saw its title at all.
    struct Chunk: Sendable {
        var buffer: ByteBuffer
        let title: IcyMetadata
    }

    private let ring: Mutex<StreamRing<Chunk>>
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        ring = Mutex(StreamRing(capacity: capacity))
    }

    func append(_ chunk: Chunk) {
        ring.withLock { $0.append(chunk, size: chunk.buffer.readableBytes) }
    }

    func read(from position: UInt64) -> StreamRing<Chunk>.Read {
        ring.withLock { $0.read(from: position) }
    }

    func joinPosition(burst: Int) -> UInt64 {
        ring.withLock { $0.joinPosition(burst: burst) }
    }

    var end: UInt64 { ring.withLock { $0.end } }

    /// Forgets everything: the encoder stopped, and the next one starts a new stream.
    func reset() {
        ring.withLock { $0 = StreamRing(capacity: capacity) }
    }
}
