import Testing
@testable import WavelengthCore

/// The chat's rules as a value: what a message may hold, mentions, slow
/// mode, mutes and the rate limit, with the clock handed in.
@Suite("Chat room")
struct ChatRoomTests {
    let t0: EpochMillis = 80_000_000
    let ana = ChatAuthor(personID: "p-ana", name: "Ana", handle: "ana", isModerator: false)
    let host = ChatAuthor(personID: "p-host", name: "Host", handle: "host", isModerator: true)

    @Test func textIsTrimmedAndKeptAsWritten() throws {
        #expect(try ChatText.checked("  hello <b>there</b> 🎉  ") == "hello <b>there</b> 🎉")
        #expect(try ChatText.checked(String(repeating: "é", count: 300)).count == 300)
    }

    @Test func badTextIsRefusedWithItsReason() {
        #expect(throws: ChatError.empty) { try ChatText.checked("   \t ") }
        #expect(throws: ChatError.tooLong(limit: 300)) { try ChatText.checked(String(repeating: "a", count: 301)) }
        // 300 characters of stacked combining marks: few characters, many bytes.
        #expect(throws: ChatError.tooLong(limit: 300)) {
            try ChatText.checked("a" + String(repeating: "\u{0301}", count: 800))
        }
        for bad in ["two\nlines", "bell\u{07}", "nul\u{0}", "c1\u{85}x", "rtl \u{202E}gnp.exe", "iso\u{2066}x", "ls\u{2028}x"] {
            #expect(throws: ChatError.controlCharacters, "\(bad.debugDescription)") { try ChatText.checked(bad) }
        }
    }

    @Test func mentionsAreHandlesAfterAnAt() {
        #expect(ChatText.mentions(in: "hi @Ana and @bo_99, @ana again") == ["ana", "bo_99"])
        // An e-mail address, a too-short handle and a lone @ mention nobody.
        #expect(ChatText.mentions(in: "mail me@example.com @ab @ !") == [])
        #expect(ChatText.mentions(in: "@dj_one!") == ["dj_one"])
    }

    @Test func aPostIsKeptAndTheNewestFiftyRemain() throws {
        var room = ChatRoom()
        for i in 0..<60 {
            _ = try room.post("m\(i)", id: "id\(i)", by: ChatAuthor(personID: "p\(i)", name: "P", handle: nil, isModerator: false), at: t0 + Int64(i))
        }
        #expect(room.recent.count == 50)
        #expect(room.recent.first?.text == "m10")
        #expect(room.recent.last?.text == "m59")
    }

    @Test func theRateLimitHoldsEveryoneToFiveInTenSeconds() throws {
        var room = ChatRoom()
        for i in 0..<5 { _ = try room.post("hi \(i)", id: "a\(i)", by: host, at: t0 + Int64(i) * 100) }
        #expect(throws: ChatError.tooFast(limit: 5, windowSeconds: 10, retryAt: t0 + 10_000)) {
            try room.post("one more", id: "a5", by: host, at: t0 + 600)
        }
        // A refused message leaves no trace: the window moves on from the first.
        #expect(room.recent.count == 5)
        _ = try room.post("later", id: "a6", by: host, at: t0 + 10_001)
    }

    @Test func slowModeSpacesListenersButNotModerators() throws {
        var room = ChatRoom()
        try room.setSlowMode(30)
        _ = try room.post("first", id: "1", by: ana, at: t0)
        #expect(throws: ChatError.slowMode(seconds: 30, retryAt: t0 + 30_000)) {
            try room.post("second", id: "2", by: ana, at: t0 + 29_999)
        }
        _ = try room.post("second", id: "2", by: ana, at: t0 + 30_000)
        _ = try room.post("mod 1", id: "3", by: host, at: t0)
        _ = try room.post("mod 2", id: "4", by: host, at: t0 + 1)
        #expect(throws: ChatError.invalidSlowMode) { try room.setSlowMode(301) }
        #expect(throws: ChatError.invalidSlowMode) { try room.setSlowMode(-1) }
        #expect(room.slowModeSeconds == 30)
    }

    @Test func aMuteLastsItsMinutesAndThenEnds() throws {
        var room = ChatRoom()
        let until = try room.mute("p-ana", minutes: 15, at: t0)
        #expect(until == t0 + 15 * 60_000)
        #expect(throws: ChatError.muted(until: until)) { try room.post("hello?", id: "x", by: ana, at: t0 + 1000) }
        #expect(room.mutedUntil("p-ana", at: until - 1) == until)
        #expect(room.mutedUntil("p-ana", at: until) == nil)
        _ = try room.post("back", id: "y", by: ana, at: until)
        #expect(throws: ChatError.invalidMute) { try room.mute("p-ana", minutes: 14, at: t0) }
        _ = try room.mute("p-ana", minutes: 60, at: t0)
        room.unmute("p-ana")
        #expect(room.mutedUntil("p-ana", at: t0) == nil)
    }

    @Test func deletingTakesMessagesOutOfTheRecentOnes() throws {
        var room = ChatRoom()
        let bo = ChatAuthor(personID: "p-bo", name: "Bo", handle: "bo", isModerator: false)
        _ = try room.post("one", id: "1", by: ana, at: t0)
        _ = try room.post("two", id: "2", by: bo, at: t0 + 1)
        _ = try room.post("three", id: "3", by: ana, at: t0 + 2)
        room.delete(["2"])
        #expect(room.recent.map(\.id) == ["1", "3"])
        #expect(room.deleteAll(by: "p-ana") == ["1", "3"])
        #expect(room.recent.isEmpty)
        _ = try room.post("four", id: "4", by: bo, at: t0 + 3)
        let version = room.version
        room.clear()
        #expect(room.recent.isEmpty)
        #expect(room.version > version)
    }

    @Test func savedMessagesPastTheRetentionAreDropped() {
        let old = ChatMessage(id: "o", personID: "p", name: "P", handle: nil, text: "old", sentAt: t0 - 10)
        let new = ChatMessage(id: "n", personID: "p", name: "P", handle: nil, text: "new", sentAt: t0)
        let saved = ChatRoom.Saved(recent: [old, new]).keeping(since: t0)
        #expect(saved.recent == [new])
    }
}

@Suite("Reactions")
struct ReactionsTests {
    let t0: EpochMillis = 80_000_000
    let song = TimelineEntry(id: "e1", trackID: "t1", start: 80_000_000, duration: 200_000, source: .robot)

    @Test func reactionsGatherIntoABurstAndTheSongsTotals() throws {
        var reactions = Reactions()
        #expect(try reactions.react("🔥", on: song, by: "p1", at: t0))
        #expect(try !reactions.react("🔥", on: song, by: "p2", at: t0 + 10))
        #expect(try !reactions.react("😂", on: song, by: "p1", at: t0 + 20))
        let burst = reactions.flush()
        #expect(burst == Reactions.Burst(entryID: "e1", trackID: "t1", burst: ["🔥": 2, "😂": 1], totals: ["🔥": 2, "😂": 1]))
        let none = reactions.flush()
        #expect(none == nil)
        #expect(try reactions.react("🔥", on: song, by: "p3", at: t0 + 30))
        let next = reactions.flush()
        #expect(next?.totals == ["🔥": 3, "😂": 1])
    }

    @Test func totalsKeptBeforeARestartCountOn() throws {
        var reactions = Reactions()
        reactions.resume(entryID: "e1", trackID: "t1", totals: ["🔥": 4, "<b>": 9, "😂": 0])
        #expect(reactions.totals == ["🔥": 4])
        #expect(try reactions.react("🔥", on: song, by: "p1", at: t0))
        let burst = reactions.flush()
        // Storage adds the burst; the totals shown count on from what it held.
        #expect(burst == Reactions.Burst(entryID: "e1", trackID: "t1", burst: ["🔥": 1], totals: ["🔥": 5]))
        // Taken up once only, at loading.
        reactions.resume(entryID: "e1", trackID: "t1", totals: ["🔥": 4])
        #expect(reactions.totals == ["🔥": 5])
    }

    @Test func aNewSongStartsFromNothing() throws {
        var reactions = Reactions()
        _ = try reactions.react("🔥", on: song, by: "p1", at: t0)
        let next = TimelineEntry(id: "e2", trackID: "t2", start: t0 + 200_000, duration: 100_000, source: .robot)
        _ = try reactions.react("💃", on: next, by: "p1", at: t0 + 200_001)
        let burst = reactions.flush()
        #expect(burst == Reactions.Burst(entryID: "e2", trackID: "t2", burst: ["💃": 1], totals: ["💃": 1]))
    }

    @Test func onlyThePaletteAndAFewASecondEach() throws {
        var reactions = Reactions()
        #expect(throws: ChatError.unknownReaction) { try reactions.react("<script>", on: song, by: "p1", at: t0) }
        for i in 0..<Reactions.limit { _ = try reactions.react("🙌", on: song, by: "p1", at: t0 + Int64(i)) }
        #expect(throws: ChatError.tooFast(limit: 10, windowSeconds: 5, retryAt: t0 + 5_000)) {
            try reactions.react("🙌", on: song, by: "p1", at: t0 + 100)
        }
        // Someone else is not held back by p1.
        _ = try reactions.react("🙌", on: song, by: "p2", at: t0 + 100)
        #expect(reactions.totals["🙌"] == 11)
    }
}
