import Foundation
import Testing
@testable import WavelengthCore

/// The party and the lobby in play: a host and 30 guests request, vote,
/// withdraw, skip and thumb; the host vetoes, lifts vetoes, moves requests,
/// plays one now, skips and sends voice clips; 500 songs play on an 8-song
/// and a 2,000-song library. The clock and the randomness are injected;
/// after every event the rules are checked from the outside:
///
/// - no vetoed song plays, nor waits on the timeline for the robot or a ballot;
/// - no guest has more requests than the cap, lined-up ones included;
/// - turns alternate: a request of the room's starts only for a guest with
///   the fewest turns among those waiting;
/// - no song repeats within the rule's window, bent only by the library's size
///   (the host's "play now" is the host's override, like the host's own picks);
/// - a host's voice clip plays within one song;
/// - vote counts are hidden from guests unless the host shows them;
/// - in a lobby, every song long enough for a vote gets a ballot.
///
/// A failure names its seed: `PARTY_SEED=… swift test --filter PartySimulation` replays it.
///
/// Each play runs on a thread of its own, one at a time: seconds of pure
/// computation on Swift's cooperative pool (two threads here) held up every
/// other test's tasks (the stall watch saw the pool silent for 9 s).
@Suite("Party simulation", .serialized)
struct PartySimulationTests {
    static let seeds: [UInt64] = ProcessInfo.processInfo.environment["PARTY_SEED"].flatMap(UInt64.init).map { [$0] } ?? [1, 2]

    @Test(arguments: [8, 2000], seeds)
    func aPartyKeepsEveryRuleInPlay(librarySize: Int, seed: UInt64) async throws {
        let play = try await PartyPlay.played(mode: .requests, librarySize: librarySize, seed: seed)
        #expect(play.requestsStarted > 50, "seed \(seed): the room's requests hardly played (\(play.requestsStarted))")
        #expect(play.vetoes > 0 && play.clips > 0, "seed \(seed): the host never vetoed or sent a clip")
    }

    @Test(arguments: [8, 2000], seeds)
    func aLobbyKeepsEveryRuleInPlay(librarySize: Int, seed: UInt64) async throws {
        let play = try await PartyPlay.played(mode: .lobby, librarySize: librarySize, seed: seed)
        #expect(play.elected > 200, "seed \(seed): ballots elected only \(play.elected) songs")
    }
}

extension PartyPlay {
    /// What 500 songs of play counted, played on a thread of its own (see
    /// `PartySimulationTests`).
    static func played(mode: ProgrammingMode, librarySize: Int, seed: UInt64) async throws -> (
        requestsStarted: Int, vetoes: Int, clips: Int, elected: Int
    ) {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                do {
                    var play = try PartyPlay(mode: mode, librarySize: librarySize, seed: seed)
                    try play.run(songs: 500)
                    continuation.resume(returning: (play.requestsStarted, play.vetoes, play.clips, play.elected))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }
}

/// One simulated party (see `PartySimulationTests`).
struct PartyPlay {
    let seed: UInt64
    let library: [PoolTrack]
    let inputs: RobotInputs
    let guests: Int = 30
    var machine: StationMachine
    var rng: SeededRandom
    var now: EpochMillis = 1_800_000_000_000
    var commandSerial = 0
    /// What the checks remember between events.
    var started: [EntryID] = []
    var windowWhenScheduled: [EntryID: Int] = [:]
    var songPlays: [TrackID] = []
    /// The last songs started, with their sources, for a failure's message.
    var recentStarts: [String] = []
    /// Requests the host played at once: the host's override, which the
    /// repeat rule doesn't hold back (as with the host's own picks).
    var playedNow: Set<EntryID> = []
    var clipsWaiting: [(entryID: EntryID, songsSince: Int)] = []
    var requestsStarted = 0
    var vetoes = 0
    var clips = 0
    var elected = 0
    /// The entries requests were lined up as, so far.
    var seenLinedUp: Set<EntryID> = []
    /// The requests the host had placed, as of the last event.
    var arrangedBefore: Set<RequestID> = []

    init(mode: ProgrammingMode, librarySize: Int, seed: UInt64) throws {
        self.seed = seed
        var make = SeededRandom(seed: seed &+ 1000)
        library = (0..<librarySize).map { n in
            PoolTrack(
                id: "t\(n)", artist: "Artist \(n % max(3, librarySize / 4))",
                duration: Int64.random(in: 60_000...240_000, using: &make), album: "Album \(n % 50)")
        }
        inputs = RobotInputs(
            pool: library, fallback: library, artists: Dictionary(uniqueKeysWithValues: library.map { ($0.id, $0.artist) }))
        var queue = RequestQueue()
        if mode == .lobby {
            // Vetoes from the party the lobby was before: they still hold.
            for track in library.prefix(max(1, librarySize / 40)) { _ = queue.veto(track: track.id) }
        }
        machine = StationMachine(
            station: StationState(id: "party", quietSince: now - 1000), settings: .init(commitLead: 300),
            party: PartyState(
                mode: mode, settings: RequestSettings(maxPendingPerPerson: 2, noRepeatWithin: 10), queue: queue))
        rng = SeededRandom(seed: seed)
        let host = Seat(personID: "host", name: "Host", role: .owner)
        _ = try machine.connect(ConnectionID(1), seat: host, since: nil, at: now, robot: inputs, using: &rng)
        for guest in 0..<guests {
            let seat = Seat(personID: "g\(guest)", name: "Guest \(guest)", role: .listener)
            _ = try machine.connect(ConnectionID(UInt64(guest + 2)), seat: seat, since: nil, at: now, robot: inputs, using: &rng)
        }
        try observe()
    }

    mutating func run(songs: Int) throws {
        while started.count < songs {
            now += Int64.random(in: 500...25_000, using: &rng)
            fireTimers()
            try observe()
            act()
            try observe()
        }
    }

    // MARK: Events

    mutating func fireTimers() {
        while let (timer, due) = machine.timers.filter({ $0.value <= now }).min(by: { $0.value < $1.value }) {
            _ = machine.timerFired(timer, due: due, at: due, robot: inputs, using: &rng)
        }
    }

    mutating func act() {
        let roll = Int.random(in: 0..<100, using: &rng)
        let guest = UInt64(Int.random(in: 0..<guests, using: &rng) + 2)
        let queue = machine.party.queue
        let waiting = queue.pending.filter { !$0.isLinedUp }
        let current = machine.station.timeline.current(at: now)
        switch roll {
        case 0..<30:
            send(.request(trackID: library.randomElement(using: &rng)!.id), from: guest)
        case 30..<45:
            if let request = waiting.randomElement(using: &rng) {
                send(.vote(requestID: request.id, vote: Bool.random(using: &rng) ? .up : .down), from: guest)
            } else if let ballot = machine.party.lobby.ballot, let pick = ballot.candidates.randomElement(using: &rng) {
                send(.ballotVote(ballotID: ballot.id, trackID: pick.trackID), from: guest)
            }
        case 45..<55:
            if let ballot = machine.party.lobby.ballot, let pick = ballot.candidates.randomElement(using: &rng) {
                send(.ballotVote(ballotID: ballot.id, trackID: pick.trackID), from: guest)
            }
        case 55..<60:
            if let mine = queue.pending.filter({ $0.requester == "g\(guest - 2)" }).randomElement(using: &rng) {
                send(.withdraw(requestID: mine.id), from: guest)
            }
        case 60..<68:
            if let current { send(.thumb(entryID: current.id, up: Bool.random(using: &rng)), from: guest) }
        case 68..<72:
            if let current { send(.voteSkip(entryID: current.id), from: guest) }
        case 72..<77:
            if let request = queue.pending.randomElement(using: &rng), send(.vetoRequest(requestID: request.id), from: 1) {
                vetoes += 1
            }
        case 77..<79:
            // Sorted: a set's order changes from run to run, and a seed must replay.
            if let track = queue.vetoed.sorted().randomElement(using: &rng) { send(.liftVeto(trackID: track), from: 1) }
        case 79..<82:
            if let request = waiting.randomElement(using: &rng) {
                send(.moveRequest(requestID: request.id, toIndex: Int.random(in: 0...3, using: &rng)), from: 1)
            }
        case 82..<84:
            if let request = waiting.randomElement(using: &rng) {
                let before = Set(machine.station.timeline.entries.map(\.id))
                if send(.playRequestNow(requestID: request.id), from: 1) {
                    let chosen = machine.station.timeline.entries.filter { !before.contains($0.id) && $0.trackID == request.trackID }
                    playedNow.formUnion(chosen.map(\.id))
                }
            }
        case 84..<87:
            if let current { send(.skip(entryID: current.id), from: 1) }
        case 87..<90:
            sendClip()
        default:
            break  // a quiet moment
        }
    }

    @discardableResult
    mutating func send(_ command: StationCommand, from connection: UInt64) -> Bool {
        commandSerial += 1
        let track = command.trackID.flatMap { id in library.first { $0.id == id } }
        do {
            _ = try machine.command(
                command, id: "c\(commandSerial)", epoch: nil, from: .connection(ConnectionID(connection)), at: now,
                track: track, robot: inputs, using: &rng)
            return true
        } catch {
            return false  // refusals are part of play; the checks say whether a rule broke
        }
    }

    mutating func sendClip() {
        let before = Set(machine.station.timeline.entries.map(\.id))
        let clip = VoiceClip(
            id: "clip\(clips)", stationID: "party", personID: "host", name: "Host", note: "", durationMs: 8_000,
            bytes: 1000, status: .approved, createdAt: now)
        guard (try? machine.clipApproved(clip, at: now, using: &rng)) != nil,
            let entry = machine.station.timeline.entries.first(where: { !before.contains($0.id) && $0.source == .voice })
        else { return }
        clips += 1
        clipsWaiting.append((entry.id, 0))
    }

    // MARK: Checks

    /// Checks every rule against the machine as it is now.
    mutating func observe() throws {
        let rules = machine.rules
        let window = rules.repeats(inputs).window
        let context = "seed \(seed), library \(library.count), mode \(machine.party.mode), song \(started.count)"
        let timeline = machine.station.timeline
        for entry in timeline.entries where windowWhenScheduled[entry.id] == nil {
            windowWhenScheduled[entry.id] = window
        }
        // Newly started entries, in order (history first: a skip or a tick
        // may have moved several).
        let seen = Set(started)
        let playedNow = (machine.station.recentHistory + timeline.entries.filter { $0.start <= now })
            .filter { !seen.contains($0.id) && $0.start >= 1_800_000_000_000 - 300_000 }
        for entry in playedNow.sorted(by: { $0.start < $1.start }) {
            try check(start: entry, context: context)
        }
        // No vetoed song waits for the robot, a request or a ballot.
        for entry in timeline.upcoming(at: now) where entry.source != .dj && entry.source != .voice {
            try require(!rules.vetoed.contains(entry.trackID), "vetoed \(entry.trackID) is lined up (\(entry.source)): \(context)")
        }
        if let ballot = machine.party.lobby.ballot {
            for candidate in ballot.candidates {
                try require(!rules.vetoed.contains(candidate.trackID), "vetoed \(candidate.trackID) on the ballot: \(context)")
            }
        }
        // The cap, lined-up requests included.
        let perGuest = Dictionary(grouping: machine.party.queue.pending, by: \.requester).mapValues(\.count)
        for (guest, count) in perGuest {
            try require(count <= machine.party.settings.maxPendingPerPerson, "\(guest) has \(count) requests: \(context)")
        }
        // Counts stay hidden from the room.
        let guestSeat = Seat(personID: "g0", name: "Guest 0", role: .listener)
        try require(!machine.showsVoteCounts(to: guestSeat), "a guest sees vote counts: \(context)")
        // In a lobby, a song long enough for a vote has a ballot.
        for request in machine.party.queue.pending {
            guard let id = request.entryID, seenLinedUp.insert(id).inserted, !arrangedBefore.contains(request.id) else { continue }
            try checkTurn(linedUp: request, context: context)
        }
        arrangedBefore = Set(machine.party.queue.arranged)
        if machine.party.isLobby, let current = timeline.current(at: now), current.source != .voice,
            Ballot.closingTime(songEndsAt: current.expiration, commitLead: 300, prepare: LobbyState.prepareMillis)
                - current.start >= LobbyState.minimumVotingMillis + 5_000,
            now < current.start + 1_000
        {
            try require(machine.party.lobby.ballot?.follows == current.id, "no ballot for \(current.trackID): \(context)")
        }
    }

    mutating func check(start entry: TimelineEntry, context: String) throws {
        started.append(entry.id)
        if entry.source == .voice {
            clipsWaiting.removeAll { $0.entryID == entry.id }
            return
        }
        guard entry.isSong else { return }
        let rules = machine.rules
        // A clip waits for at most one song to start before it.
        for index in clipsWaiting.indices {
            clipsWaiting[index].songsSince += 1
            try require(
                clipsWaiting[index].songsSince <= 1,
                "a host's clip waited \(clipsWaiting[index].songsSince) songs: \(context)")
        }
        if entry.source != .dj {
            try require(!rules.vetoed.contains(entry.trackID), "vetoed \(entry.trackID) played (\(entry.source)): \(context)")
            let window = min(windowWhenScheduled[entry.id] ?? 0, rules.repeats(inputs).window)
            if !playedNow.contains(entry.id), let last = songPlays.lastIndex(of: entry.trackID) {
                let distance = songPlays.count - last
                try require(
                    distance > window,
                    "\(entry.trackID) (\(entry.source)) came back after \(distance) songs; the window is \(window): \(context); "
                        + "before it: \(recentStarts.suffix(window + 2).joined(separator: ", "))")
            }
        }
        if entry.source == .elected { elected += 1 }
        if entry.source == .request { requestsStarted += 1 }
        songPlays.append(entry.trackID)
        recentStarts.append("\(entry.trackID)/\(entry.source)")
    }

    /// A request of the room's (not one the host placed) is lined up only
    /// for a guest with the fewest turns among those with requests waiting.
    func checkTurn(linedUp request: SongRequest, context: String) throws {
        let queue = machine.party.queue
        let turn = queue.turns[request.requester] ?? 0
        let arranged = Set(queue.arranged)
        for other in queue.pending where !other.isLinedUp && !arranged.contains(other.id) && other.requester != request.requester {
            try require(
                (queue.turns[other.requester] ?? 0) >= turn,
                "\(request.requester) (turn \(turn)) went ahead of \(other.requester) (turn \(queue.turns[other.requester] ?? 0)): \(context)")
        }
    }

    func require(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw SimulationFailure(message: message()) }
    }
}

struct SimulationFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
