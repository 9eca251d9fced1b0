import Testing
@testable import WavelengthCore

@Suite("Lyrics")
struct LyricsTests {
    @Test func lrcLinesAreTimedAndSorted() {
        let lyrics = Lyrics(lrc: "[ti:Song]\n[ar:Band]\n[00:12.30]First\n[00:05]Intro\n[01:02.5]Late\n")
        #expect(lyrics.isSynced)
        #expect(lyrics.lines == [
            .init(timeMs: 5_000, text: "Intro"), .init(timeMs: 12_300, text: "First"), .init(timeMs: 62_500, text: "Late"),
        ])
    }

    @Test func oneLineWithSeveralTimesIsSungEachTime() {
        let lyrics = Lyrics(lrc: "[00:10.00][00:40.00]Chorus\n[00:20.00]Verse")
        #expect(lyrics.lines.map(\.timeMs) == [10_000, 20_000, 40_000])
        #expect(lyrics.lines.map(\.text) == ["Chorus", "Verse", "Chorus"])
    }

    @Test func theOffsetTagMovesEveryLine() {
        // Positive: the words come sooner.
        #expect(Lyrics(lrc: "[offset:+500]\n[00:10.00]A").lines.first?.timeMs == 9_500)
        #expect(Lyrics(lrc: "[offset:-250]\n[00:10.00]A").lines.first?.timeMs == 10_250)
        #expect(Lyrics(lrc: "[offset:900]\n[00:00.50]A").lines.first?.timeMs == 0)
    }

    @Test func enhancedWordTimesAndControlCharactersAreTakenOut() {
        let lyrics = Lyrics(lrc: "[00:01.00]<00:01.00>Hello <00:01.50>world\u{7}  <b>\r\n")
        #expect(lyrics.lines.first?.text == "Hello world <b>")
    }

    @Test func textWithNoTimesIsUnsynced() {
        let lyrics = Lyrics(lrc: "\n\nPlain words\nSecond line\n\n")
        #expect(!lyrics.isSynced)
        #expect(lyrics.lines.map(\.text) == ["Plain words", "Second line"])
        #expect(lyrics.lineIndex(at: 5_000) == nil)
    }

    @Test func theCurrentLineIsTheLastWhoseTimeHasCome() {
        let lyrics = Lyrics(lrc: "[00:01.00]A\n[00:03.00]B\n[00:05.00]")
        #expect(lyrics.lineIndex(at: 500) == nil)
        #expect(lyrics.lineIndex(at: 1_000) == 0)
        #expect(lyrics.lineIndex(at: 4_999) == 1)
        #expect(lyrics.lineIndex(at: 60_000) == 2)
    }

    @Test func badTimesAreNotTimesAndHugeFilesStaySmall() {
        #expect(Lyrics.time("00:61.00") == nil)
        #expect(Lyrics.time("aa:10") == nil)
        #expect(Lyrics.time("00:10.1234") == nil)
        #expect(Lyrics.time("02:03.4") == 123_400)
        #expect(Lyrics.time("02:03:45") == 123_450)
        let huge = Lyrics(lrc: String(repeating: "[00:01.00]" + String(repeating: "x", count: 900) + "\n", count: 5_000))
        #expect(huge.lines.count <= Lyrics.maxLines)
        #expect(huge.lines.allSatisfy { $0.text.count <= Lyrics.maxLineLength })
    }
}
