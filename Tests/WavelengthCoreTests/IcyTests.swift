import Testing
import WavelengthCore

/// ICY metadata as Icecast 2.4 writes it, read back the way a player does.
@Suite("ICY metadata")
struct IcyTests {
    /// What a player makes of a block: its title, from the bytes.
    static func title(of block: IcyMetadata) -> String? {
        let bytes = block.bytes
        guard let length = bytes.first, length > 0 else { return nil }
        #expect(bytes.count == 1 + Int(length) * 16)
        let body = bytes.dropFirst()
        let text = String(decoding: body.prefix { $0 != 0 }, as: UTF8.self)
        #expect(body.drop { $0 != 0 }.allSatisfy { $0 == 0 }, "padding is NUL")
        guard text.hasPrefix("StreamTitle='"), text.hasSuffix("';") else { return nil }
        return String(text.dropFirst("StreamTitle='".count).dropLast(2))
    }

    @Test func aBlockIsALengthByteThenSixteenByteRowsPaddedWithNul() {
        let block = IcyMetadata(artist: "Nordlys Trio", title: "Fjord Loop")
        let body = Array("StreamTitle='Nordlys Trio - Fjord Loop';".utf8)
        #expect(block.bytes[0] == UInt8((body.count + 15) / 16))
        #expect(Array(block.bytes[1...body.count]) == body)
        #expect(Self.title(of: block) == "Nordlys Trio - Fjord Loop")
    }

    @Test func quotesAndUnicodeSurviveAsTheyAre() {
        let block = IcyMetadata(artist: "Aurora Vale", title: "Don't Stop — 夜明けの街 🎶")
        #expect(Self.title(of: block) == "Aurora Vale - Don't Stop — 夜明けの街 🎶")
    }

    @Test func whatIsKnownIsShown() {
        #expect(Self.title(of: IcyMetadata(artist: nil, title: "Only a Title")) == "Only a Title")
        #expect(Self.title(of: IcyMetadata(artist: "  Only an Artist ", title: " ")) == "Only an Artist")
        #expect(Self.title(of: IcyMetadata(artist: nil, title: nil)) == "")
    }

    @Test func aTitleTooLongForABlockIsCutBetweenCharacters() {
        let block = IcyMetadata(artist: nil, title: String(repeating: "é", count: 5_000))
        #expect(block.bytes[0] == 255)
        let title = Self.title(of: block)
        #expect(title?.allSatisfy { $0 == "é" } == true)
        #expect((title?.utf8.count ?? 0) > 4_000)
    }

    @Test func controlCharactersBecomeSpaces() {
        #expect(Self.title(of: IcyMetadata(artist: "A\u{0}B", title: "C\nD")) == "A B - C D")
    }

    @Test func unchangedIsASingleZeroByte() {
        #expect(IcyMetadata.unchanged.bytes == [0])
    }
}

@Suite("ICY interleaving")
struct IcyInterleaverTests {
    /// Lays out what one listener receives: the audio (a counting pattern)
    /// with the planned blocks between.
    static func stream(_ chunks: [(size: Int, title: IcyMetadata)], interval: Int) -> [UInt8] {
        var interleaver = IcyInterleaver(interval: interval)
        var out: [UInt8] = []
        var sent = 0
        for (size, title) in chunks {
            let audio = (0..<size).map { UInt8(truncatingIfNeeded: sent + $0) }
            for piece in interleaver.plan(audioBytes: size, current: title) {
                switch piece {
                case .audio(let range): out += audio[range]
                case .metadata(let block): out += block.bytes
                }
            }
            sent += size
        }
        return out
    }

    /// Reads a stream as a player does with `icy-metaint`: `interval` bytes
    /// of audio, a length byte, that many 16-byte rows, again.
    static func read(_ stream: [UInt8], interval: Int) -> (audio: [UInt8], blocks: [[UInt8]]) {
        var audio: [UInt8] = [], blocks: [[UInt8]] = []
        var index = 0
        while index < stream.count {
            let take = min(interval, stream.count - index)
            audio += stream[index..<index + take]
            index += take
            guard take == interval, index < stream.count else { break }
            let length = Int(stream[index]) * 16
            blocks.append(Array(stream[index...index + length]))
            index += 1 + length
        }
        return (audio, blocks)
    }

    @Test func blocksComeExactlyEveryIntervalAndTheAudioIsWhole() throws {
        let first = IcyMetadata(artist: "A", title: "One")
        let second = IcyMetadata(artist: "B", title: "Two")
        let chunks = Array(repeating: (size: 4_096, title: first), count: 10)
            + Array(repeating: (size: 4_096, title: second), count: 10)
        let interval = 16_000
        let (audio, blocks) = Self.read(Self.stream(chunks, interval: interval), interval: interval)
        #expect(audio == (0..<(20 * 4_096)).map { UInt8(truncatingIfNeeded: $0) })
        #expect(blocks.count == 20 * 4_096 / interval)
        // The first block names the song; then 0 until the title changes.
        #expect(blocks[0] == first.bytes)
        #expect(blocks[1] == [0])
        let changed = try #require(blocks.firstIndex(of: second.bytes))
        #expect(blocks[1..<changed].allSatisfy { $0 == [0] })
        #expect(blocks[(changed + 1)...].allSatisfy { $0 == [0] })
        // The change shows at the first block after the new song's audio began (byte 40,960).
        #expect(changed == 40_960 / interval)
    }

    @Test func aChunkLongerThanTheIntervalGetsABlockAtEachPoint() {
        let title = IcyMetadata(artist: "A", title: "Long")
        var interleaver = IcyInterleaver(interval: 8_192)
        let pieces = interleaver.plan(audioBytes: 20_000, current: title)
        #expect(pieces == [
            .audio(0..<8_192), .metadata(title), .audio(8_192..<16_384), .metadata(.unchanged), .audio(16_384..<20_000),
        ])
        // The next block is due 8,192 bytes after the last, across calls.
        #expect(interleaver.plan(audioBytes: 4_576, current: title) == [.audio(0..<4_576), .metadata(.unchanged)])
    }
}
