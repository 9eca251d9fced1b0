import Logging
import NIOCore
import Testing
import WavelengthCore
@testable import WavelengthServer

@Suite("A station's stream", .timeLimit(.minutes(5)))
struct StationStreamTests {
    /// A stream with no encoder: the test appends its output by hand.
    private static func stream() -> StationStream {
        StationStream(
            stationID: "s-stream-test", grace: .seconds(60), stallTimeout: .seconds(60),
            logger: Logger(label: "test"), metrics: ServerMetrics(), report: { _ in }, start: { _ in Task {} })
    }

    /// A listener behind the live edge gets each piece of audio with the
    /// title it was made under, not the title of the moment it is sent.
    /// (Seen in a loaded run: a player that read nothing while a 4 s voice
    /// clip played was then sent the clip's audio under the next song's
    /// title, and never saw the clip's.)
    @Test func aListenerBehindGetsTheTitleOfTheAudioItIsSent() async throws {
        let stream = Self.stream()
        let (ticket, position) = try #require(
            await stream.join(.connection(ConnectionIDs.next()), kind: .stream))
        await stream.nowPlaying(artist: "Aurora Vale", title: "Café Nocturne")
        await stream.append(ByteBuffer(bytes: [1, 2, 3]))
        await stream.nowPlaying(artist: "DJ Kay", title: "On the radio")
        await stream.append(ByteBuffer(bytes: [4, 5]))
        await stream.nowPlaying(artist: "Nordlys Trio", title: "Fjord")
        guard case .chunks(let chunks, let end) = await stream.next(ticket, after: position) else {
            Issue.record("the listener was let go")
            return
        }
        #expect(end == 5)
        #expect(chunks.map { Array($0.buffer.readableBytesView) } == [[1, 2, 3], [4, 5]])
        #expect(
            chunks.map(\.title) == [
                IcyMetadata(artist: "Aurora Vale", title: "Café Nocturne"),
                IcyMetadata(artist: "DJ Kay", title: "On the radio"),
            ])
        await stream.leave(ticket)
    }
}
