import Testing

@testable import WavelengthServer

/// A file's audio that ends before its entry: the end of the song, a file
/// cut short, or one that can't be read (see `FileEnd`).
@Suite("The end of a file on the stream")
struct FileEndTests {
    /// The demo's MP3s decode up to about a second short of the length read
    /// from their headers; each such end was logged "could not decode".
    @Test func anMP3ThatEndsAMomentEarlyIsTheSongsEnd() {
        #expect(FileEnd.after(decoderEnded: true, framesDecoded: 2_100_000, stopped: 47_974, until: 48_000) == .endedEarly(silenceMs: 26))
        #expect(FileEnd.after(decoderEnded: true, framesDecoded: 0, stopped: 47_990, until: 48_000) == .endedEarly(silenceMs: 10))
        #expect(FileEnd.after(decoderEnded: true, framesDecoded: 10, stopped: 46_000, until: 48_000) == .endedEarly(silenceMs: 2_000))
    }

    @Test func aFileCutShortIsDecodedAgainAndOneThatGivesNothingIsSaid() {
        #expect(FileEnd.after(decoderEnded: true, framesDecoded: 44_100, stopped: 20_000, until: 48_000) == .decodeAgain)
        #expect(FileEnd.after(decoderEnded: true, framesDecoded: 0, stopped: 20_000, until: 48_000) == .unreadable(silenceMs: 1_000))
    }

    @Test func anEntryThatEndedOrChangedNeedsNothing() {
        #expect(FileEnd.after(decoderEnded: false, framesDecoded: 0, stopped: 20_000, until: 48_000) == .played)
        #expect(FileEnd.after(decoderEnded: true, framesDecoded: 10, stopped: 48_000, until: 48_000) == .played)
    }
}
