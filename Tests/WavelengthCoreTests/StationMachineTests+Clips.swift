import Testing
@testable import WavelengthCore

/// Voice clips on the machine: between songs, in the order approved, only
/// while someone listens.
@Suite("Station machine: voice clips")
struct StationMachineClipTests {
    let base = StationMachineTests()

    func clip(_ id: String, ms: Int64 = 4_000) -> VoiceClip {
        VoiceClip(
            id: id, stationID: "s1", personID: "p1", name: "Kay", note: "", durationMs: ms, bytes: 1_000, status: .approved,
            createdAt: 0)
    }

    @Test func clipsGoRightAfterTheSongInTheOrderApproved() throws {
        var machine = base.quietMachine()
        let t0 = base.t0
        _ = try base.connect(&machine, 1, Seat(personID: "p-owner", name: "Owner", role: .owner))
        // A DJ's pick waits up next; clips still come first, after the song.
        _ = try base.command(&machine, .queueNext(trackID: "t4"), id: "q", from: .connection(ConnectionID(1)))
        let current = try #require(machine.station.timeline.current(at: t0))
        var rng = SeededRandom(seed: 1)
        let first = try machine.clipApproved(clip("va"), at: t0 + 10, using: &rng)
        #expect(first.contains(.broadcastUpdate))
        _ = try machine.clipApproved(clip("vb", ms: 2_000), at: t0 + 20, using: &rng)
        let upcoming = machine.station.timeline.upcoming(at: t0 + 20)
        #expect(upcoming.prefix(3).map(\.trackID) == ["clip:va", "clip:vb", "t4"])
        #expect(upcoming[0].source == .voice && upcoming[0].start == current.expiration)
        #expect(upcoming[1].start == current.expiration + 4_000)
        #expect(upcoming[0].why == "A voice clip from Kay")
    }

    @Test func aQuietStationTakesNoClip() {
        var machine = base.quietMachine()
        var rng = SeededRandom(seed: 1)
        #expect(throws: HubError.notOnAir) { try machine.clipApproved(clip("va"), at: base.t0, using: &rng) }
    }

    @Test func theHostAndCoDJsHearOfAWaitingClip() throws {
        var machine = base.quietMachine()
        _ = try base.connect(&machine, 1, Seat(personID: "p-owner", name: "Owner", role: .owner))
        _ = try base.connect(&machine, 2, Seat(personID: "p-l", name: "L", role: .listener))
        _ = try base.connect(&machine, 3, Seat(personID: "p-c", name: "C", role: .codj))
        var waiting = clip("vp")
        waiting.status = .pending
        #expect(machine.clipWaiting(waiting) == [.send(ConnectionID(1), .clipWaiting(waiting)), .send(ConnectionID(3), .clipWaiting(waiting))])
    }

    @Test func clipTrackIDsRoundTrip() {
        #expect(ClipTrack.id("v1") == "clip:v1")
        #expect(ClipTrack.parse("clip:v1") == "v1")
        #expect(ClipTrack.parse("clip:") == nil)
        #expect(ClipTrack.parse("t1") == nil)
    }
}

/// The clip quota's rule: the room's waiting clips take at most half.
@Test func waitingClipsFillHalfTheQuotaAndTheHostsTheWhole() {
    func clip(_ status: VoiceClip.Status) -> VoiceClip {
        VoiceClip(id: "c", stationID: "s", personID: "p", name: "P", note: "", durationMs: 2000, bytes: 10, status: status, createdAt: 0)
    }
    #expect(ClipLimits.fits(clip(.pending), approvedBytes: 0, pendingBytes: 40, quotaBytes: 100))
    #expect(!ClipLimits.fits(clip(.pending), approvedBytes: 0, pendingBytes: 41, quotaBytes: 100))
    #expect(!ClipLimits.fits(clip(.pending), approvedBytes: 60, pendingBytes: 35, quotaBytes: 100))
    #expect(ClipLimits.fits(clip(.approved), approvedBytes: 40, pendingBytes: 50, quotaBytes: 100))
    #expect(!ClipLimits.fits(clip(.approved), approvedBytes: 91, pendingBytes: 0, quotaBytes: 100))
}
