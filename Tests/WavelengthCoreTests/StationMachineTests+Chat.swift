import Testing
@testable import WavelengthCore

/// The room on the station machine: who may post, what is saved before it
/// is sent, moderation by role, and reactions in bursts.
@Suite("Station machine: the room")
struct StationMachineChatTests {
    let base = StationMachineTests()
    var t0: EpochMillis { base.t0 }
    let guest = Seat(personID: "p-guest", name: "Gus", role: .listener)
    var owner: Seat { Seat(personID: "p-owner", name: "Owner", role: .owner, handle: "owner") }
    var codj: Seat { Seat(personID: "p-codj", name: "Co", role: .codj, handle: "cody") }
    var listener: Seat { Seat(personID: "p-listener", name: "Lis", role: .listener, handle: "lis") }

    func room() throws -> StationMachine {
        var machine = base.quietMachine()
        _ = try base.connect(&machine, 1, owner)
        _ = try base.connect(&machine, 2, codj)
        _ = try base.connect(&machine, 3, listener)
        _ = try base.connect(&machine, 4, guest)
        _ = try base.connect(&machine, 5, .anonymous)
        return machine
    }

    func say(_ machine: inout StationMachine, _ text: String, from id: UInt64, at now: EpochMillis? = nil)
        throws(HubError) -> [HubAction]
    {
        var rng = SeededRandom(seed: UInt64(now ?? t0))
        return try machine.chat(text, ref: "r\(id)", from: ConnectionID(id), at: now ?? t0, using: &rng)
    }

    @Test func everyoneIsToldTheRoomOnJoining() throws {
        var machine = base.quietMachine()
        let actions = try base.connect(&machine, 1, listener)
        #expect(actions.contains(.sendChatRoom(ConnectionID(1))))
        let view = try #require(machine.chatRoom(for: ConnectionID(1), at: t0))
        #expect(view.enabled && view.messages.isEmpty && view.muted == nil)
    }

    /// A guest has no account handle, yet can be @mentioned: by a room
    /// handle made of their name and id, which their messages carry and the
    /// room's list of people names before they say a word.
    @Test func aGuestCanBeMentionedBeforeAndAfterTheySpeak() throws {
        var machine = try room()
        let handle = ChatText.guestHandle(name: "Gus", personID: "p-guest")
        #expect(handle == "gus_uest")
        #expect(ChatText.mentions(in: "hi @\(handle)!") == [handle])
        let people = try #require(machine.chatRoom(for: ConnectionID(3), at: t0)).people
        #expect(people.map(\.handle) == ["owner", "cody", "lis", handle])
        #expect(ChatText.guestHandle(name: "  ", personID: "X-9") == "guest_x9")
        #expect(ChatText.guestHandle(name: "Ånne Marie-Lou Smith", personID: "g1234abcd") == "nne_marie_lo_abcd")
    }

    @Test func aMessageIsSavedThenSentToEveryoneAndToItsAuthorWithItsRef() throws {
        var machine = try room()
        let actions = try say(&machine, "hello @cody", from: 3)
        guard case .saveChat(.post(let message, let purgeBefore, ChatRoom.keptPerStation)) = actions.first else {
            Issue.record("the save comes first: \(actions)")
            return
        }
        #expect(message.text == "hello @cody" && message.handle == "lis" && message.mentions == ["cody"])
        #expect(purgeBefore == t0 - machine.settings.chatRetentionMillis)
        #expect(actions.contains(.broadcast(.chat(message, ref: nil), except: ConnectionID(3))))
        #expect(actions.contains(.send(ConnectionID(3), .chat(message, ref: "r3"))))
        #expect(machine.chat.recent == [message])
    }

    @Test func theAnonymousAndUnwelcomeGuestsCannotPost() throws {
        var machine = try room()
        #expect(throws: HubError.chat(.notAllowed(guestsOff: false))) { try say(&machine, "hi", from: 5) }
        _ = try say(&machine, "hi from a guest", from: 4)
        var settings = machine.party.settings
        settings.guestChat = false
        let changed = machine.settingsChanged(maxListeners: nil, requests: settings)
        #expect(changed.contains(.broadcastChatRoom))
        #expect(throws: HubError.chat(.notAllowed(guestsOff: true))) { try say(&machine, "again", from: 4) }
    }

    @Test func withTheChatOffNothingIsSentOrSaved() throws {
        var machine = try room()
        var settings = machine.party.settings
        settings.chat = false
        _ = machine.settingsChanged(maxListeners: nil, requests: settings)
        #expect(throws: HubError.chat(.off)) { try say(&machine, "anyone?", from: 1) }
        #expect(machine.chatRoom(for: ConnectionID(3), at: t0)?.enabled == false)
    }

    @Test func aKickedPersonCannotPostWhileTheirConnectionCloses() throws {
        var machine = try room()
        _ = machine.remove(personID: "p-listener", name: "Lis", reason: "kicked")
        #expect(throws: HubError.forbidden(.chat)) { try say(&machine, "wait", from: 3) }
    }

    @Test func moderatorsDeleteMuteAndSlowDown() throws {
        var machine = try room()
        let first = try say(&machine, "one", from: 3)
        guard case .saveChat(.post(let message, _, _)) = first.first else { return }
        _ = try say(&machine, "two", from: 3, at: t0 + 1)
        // A listener moderates nothing.
        #expect(throws: HubError.forbidden(.moderateChat)) {
            try machine.moderate(.delete(messageID: message.id), from: ConnectionID(3), at: t0)
        }
        let deleted = try machine.moderate(.delete(messageID: message.id), from: ConnectionID(2), at: t0 + 2)
        #expect(deleted.first == .saveChat(.delete(messageIDs: [message.id])))
        #expect(machine.chat.recent.count == 1)
        // A co-DJ mutes the listener: the listener and the moderators hear of it.
        let muted = try machine.moderate(.mute(personID: "p-listener", minutes: 30), from: ConnectionID(2), at: t0 + 3)
        #expect(muted.first == .saveChat(.mute(personID: "p-listener", until: t0 + 3 + 30 * 60_000)))
        #expect(Array(muted.dropFirst()) == [.sendChatRoom(ConnectionID(1)), .sendChatRoom(ConnectionID(2)), .sendChatRoom(ConnectionID(3))])
        #expect(throws: HubError.chat(.muted(until: t0 + 3 + 30 * 60_000))) { try say(&machine, "hey", from: 3, at: t0 + 4) }
        #expect(machine.chatRoom(for: ConnectionID(3), at: t0 + 4)?.mutedUntil == t0 + 3 + 30 * 60_000)
        #expect(machine.chatRoom(for: ConnectionID(1), at: t0 + 4)?.muted == ["p-listener": t0 + 3 + 30 * 60_000])
        #expect(!machine.seesCommonChatRoom(ConnectionID(3), at: t0 + 4))
        // Nobody mutes the owner or a co-DJ, nor themselves.
        #expect(throws: HubError.chat(.cannotMute)) {
            try machine.moderate(.mute(personID: "p-owner", minutes: 15), from: ConnectionID(2), at: t0)
        }
        #expect(throws: HubError.chat(.cannotMute)) {
            try machine.moderate(.mute(personID: "p-codj", minutes: 15), from: ConnectionID(2), at: t0)
        }
        let slow = try machine.moderate(.slowMode(seconds: 10), from: ConnectionID(1), at: t0 + 5)
        #expect(slow == [.saveChat(.slowMode(seconds: 10)), .broadcastChatRoom])
        let cleared = try machine.moderate(.clear, from: ConnectionID(1), at: t0 + 6)
        #expect(cleared.last == .broadcast(.chatDeleted(messageIDs: [], personID: nil, all: true), except: nil))
    }

    /// 40 signed-out sockets from one address added 400 reactions. Now a
    /// signed-out listener's reactions are limited per address: the sockets
    /// of one address share one person's limit, another address has its own.
    @Test func signedOutReactionsAreLimitedPerAddressNotPerSocket() throws {
        var machine = try room()
        let playing = try #require(machine.station.timeline.current(at: t0))
        for n in 0..<40 {
            let seat = Seat(personID: nil, name: "A listener", role: .listener, address: "203.0.113.7")
            _ = try base.connect(&machine, UInt64(100 + n), seat)
        }
        _ = try base.connect(&machine, 200, Seat(personID: nil, name: "A listener", role: .listener, address: "198.51.100.2"))
        var passed = 0
        for n in 0..<40 {
            for k in 0..<10 {
                if (try? machine.react("🔥", on: playing.id, from: ConnectionID(UInt64(100 + n)), at: t0 + EpochMillis(n * 10 + k))) != nil {
                    passed += 1
                }
            }
        }
        #expect(passed == Reactions.limit)
        #expect((try? machine.react("🔥", on: playing.id, from: ConnectionID(200), at: t0 + 500)) != nil)
    }

    @Test func reactionsGoOutInBurstsAndAreKeptWithTheSong() throws {
        var machine = try room()
        let playing = try #require(machine.station.timeline.current(at: t0))
        let first = try machine.react("🔥", on: playing.id, from: ConnectionID(5), at: t0)
        #expect(first == [.startTimer(.reactions, at: t0 + Reactions.burstMillis)])
        #expect(try machine.react("🔥", on: playing.id, from: ConnectionID(3), at: t0 + 10).isEmpty)
        #expect(throws: HubError.chat(.notCurrent)) { try machine.react("🔥", on: "e-old", from: ConnectionID(3), at: t0) }
        let due = base.fire(&machine, .reactions, at: t0 + Reactions.burstMillis)
        let burst = Reactions.Burst(entryID: playing.id, trackID: playing.trackID, burst: ["🔥": 2], totals: ["🔥": 2])
        #expect(due == [.recordReactions(burst), .broadcast(.reactions(burst), except: nil)])
        // Warm reactions teach the robot DJ, like a faint thumb up.
        #expect(machine.takeTasteChange() != nil)
        _ = try machine.react("😂", on: playing.id, from: ConnectionID(3), at: t0 + 300)
        _ = base.fire(&machine, .reactions, at: t0 + 300 + Reactions.burstMillis)
        #expect(machine.takeTasteChange() == nil)
        // A newcomer sees the song's totals.
        #expect(machine.chatRoom(for: ConnectionID(4), at: t0 + 600)?.reactions?.totals == ["🔥": 2, "😂": 1])
    }

    @Test func theLastListenerLeavingKeepsThePendingReactions() throws {
        var machine = base.quietMachine()
        _ = try base.connect(&machine, 1, listener)
        let playing = try #require(machine.station.timeline.current(at: t0))
        _ = try machine.react("💃", on: playing.id, from: ConnectionID(1), at: t0)
        let left = machine.disconnect(ConnectionID(1), at: t0 + 100)
        #expect(left.contains(.cancelTimer(.reactions)))
        #expect(left.contains(.recordReactions(Reactions.Burst(entryID: playing.id, trackID: playing.trackID, burst: ["💃": 1], totals: ["💃": 1]))))
        #expect(machine.timers[.reactions] == nil)
    }
}
