/// The authoritative, mutable part of a station: its timeline, revision and
/// whether anyone is listening. Every method is pure: the clock and the
/// randomness come from the caller.
public struct StationState: Sendable, Equatable {
    public let id: StationID
    /// Raised by every change a client can see.
    public private(set) var revision: Int64
    public private(set) var timeline: Timeline
    /// When the last listener left; nil while the station is on the air.
    public private(set) var quietSince: EpochMillis?
    /// The most recent plays, oldest first (storage keeps all of them).
    public private(set) var recentHistory: [TimelineEntry]
    /// When the DJ paused the station; nil while time runs. While paused the
    /// timeline is frozen at this instant.
    public private(set) var pausedAt: EpochMillis?

    /// How many plays `recentHistory` keeps.
    public static let recentHistoryLimit = 50

    public init(
        id: StationID, revision: Int64 = 0, timeline: Timeline = Timeline(), quietSince: EpochMillis?,
        recentHistory: [TimelineEntry] = [], pausedAt: EpochMillis? = nil
    ) {
        self.id = id
        self.revision = revision
        self.timeline = timeline
        self.quietSince = quietSince
        self.recentHistory = Array(recentHistory.suffix(Self.recentHistoryLimit))
        self.pausedAt = pausedAt
    }

    /// The instant the timeline is read at: the clock, or the pause.
    public func timelineTime(at now: EpochMillis) -> EpochMillis {
        pausedAt.map { min($0, now) } ?? now
    }

    public var isOnAir: Bool { quietSince == nil }

    /// What a change did, for storage and for listeners.
    public struct Outcome: Sendable, Equatable {
        /// Entries that finished (or were cut) and belong in history.
        public var played: [TimelineEntry] = []
        /// Whether clients must be told (the revision was raised).
        public var changed = false
        /// Whether anything must be saved, even without a new revision.
        public var needsSave: Bool { changed || !played.isEmpty }

        public init(played: [TimelineEntry] = [], changed: Bool = false) {
            self.played = played
            self.changed = changed
        }

        public mutating func merge(_ other: Outcome) {
            played += other.played
            changed = changed || other.changed
        }
    }

    // MARK: Time passing

    /// Moves expired entries to history.
    ///
    /// While on the air everything that expired was heard. While quiet only
    /// what started before the station went quiet was; a DJ's picks that came
    /// due while nobody listened are kept and moved up to now, and the robot's
    /// unheard picks are dropped.
    public mutating func settle(at now: EpochMillis) -> Outcome {
        let outcome = settleTimeline(at: now)
        remember(outcome.played)
        return outcome
    }

    private mutating func settleTimeline(at clockNow: EpochMillis) -> Outcome {
        let now = timelineTime(at: clockNow)
        let expired = timeline.prune(at: now)
        guard let quietSince else { return Outcome(played: expired) }
        var played: [TimelineEntry] = []
        var kept: [TimelineEntry] = []
        var dropped = false
        for entry in expired {
            if entry.start < quietSince {
                played.append(entry)
            } else if entry.source == .dj {
                kept.append(entry)
            } else {
                dropped = true
            }
        }
        guard !kept.isEmpty else { return Outcome(played: played, changed: dropped && bump()) }
        var remaining = timeline.entries
        if let current = timeline.current(at: now) {
            remaining.removeFirst()
            timeline.replaceAll(with: [current] + kept + remaining, firstStart: current.start)
        } else {
            timeline.replaceAll(with: kept + remaining, firstStart: now)
        }
        return Outcome(played: played, changed: bump())
    }

    /// The last listener left: from now on the station does no work.
    public mutating func goQuiet(at now: EpochMillis) -> Outcome {
        let outcome = settle(at: now)
        // Going quiet is invisible to clients, so the revision stays.
        if quietSince == nil { quietSince = now }
        return outcome
    }

    /// A listener arrived at a quiet station: it goes back on the air. With
    /// nothing left playing, the robot puts on a track at a random point inside
    /// it, like a radio that was already on; the DJ's kept picks follow.
    public mutating func wake(
        at now: EpochMillis, robot: RobotDJ, pool: [PoolTrack], fallback: [PoolTrack],
        artistOf: (TrackID) -> String?, taste: TasteModel = TasteModel(), using rng: inout some RandomNumberGenerator
    ) -> Outcome {
        guard quietSince != nil else { return Outcome() }
        // Still inside the schedule (a quick return), or paused by the DJ:
        // carry on as if never quiet.
        let stillPlaying = timeline.current(at: timelineTime(at: now)) != nil || pausedAt != nil
        var outcome = settle(at: now)
        quietSince = nil
        guard !stillPlaying else { return outcome }
        let source = robot.effectivePool(pool, fallback: fallback)
        let lastArtist = recentHistory.last.flatMap { artistOf($0.trackID) }
        guard
            let chosen = robot.choose(
                from: source, recent: recentTrackIDs, lastArtist: lastArtist, taste: taste, using: &rng)
        else {
            return outcome
        }
        let pick = chosen.track
        // Join somewhere in the first three quarters, so there is still a good
        // stretch of the song to hear.
        let intoTrack = Int64.random(in: 0..<max(1, pick.duration * 3 / 4), using: &rng)
        let entry = TimelineEntry(
            id: EntryIDs.make(using: &rng), trackID: pick.id, start: now - intoTrack,
            duration: pick.duration, source: .robot, why: chosen.why)
        timeline.replaceAll(with: [entry] + timeline.entries, firstStart: now - intoTrack)
        outcome.changed = bump() || outcome.changed
        return outcome
    }

    /// Tops the schedule up to the robot's horizon. Only call while on the air.
    public mutating func fill(
        at now: EpochMillis, robot: RobotDJ, pool: [PoolTrack], fallback: [PoolTrack],
        artistOf: (TrackID) -> String?, taste: TasteModel = TasteModel(), using rng: inout some RandomNumberGenerator
    ) -> Outcome {
        var outcome = settle(at: now)
        guard pausedAt == nil, robot.needsFill(timeline, at: now) else { return outcome }
        let source = robot.effectivePool(pool, fallback: fallback)
        var recent = recentTrackIDs
        var lastArtist = (timeline.entries.last ?? recentHistory.last).flatMap { artistOf($0.trackID) }
        var added = false
        while robot.needsFill(timeline, at: now),
            let chosen = robot.choose(from: source, recent: recent, lastArtist: lastArtist, taste: taste, using: &rng)
        {
            let pick = chosen.track
            let entry = TimelineEntry(
                id: EntryIDs.make(using: &rng), trackID: pick.id, start: now, duration: pick.duration,
                source: .robot, why: chosen.why)
            do {
                try timeline.append(entry, at: now)
            } catch {
                break
            }
            recent.append(pick.id)
            lastArtist = pick.artist
            added = true
        }
        if added { outcome.changed = bump() }
        return outcome
    }

    // MARK: DJ commands

    /// Applies a DJ's command at `now`.
    ///
    /// - Parameter track: looks up a library track by id (nil when unknown).
    ///
    /// - Parameter lead: how far ahead a skip or a resume takes effect, so
    ///   every client can prepare the change and make it at the same instant.
    public mutating func apply(
        _ command: StationCommand, at clockNow: EpochMillis, lead: Int64 = 0,
        track: (TrackID) -> PoolTrack?, using rng: inout some RandomNumberGenerator
    ) throws(TimelineError) -> Outcome {
        // Work on a copy so a refused command leaves no trace.
        var next = self
        var outcome = next.settle(at: clockNow)
        // While paused, edits happen at the frozen instant.
        let now = next.timelineTime(at: clockNow)
        switch command {
        case .append(let trackID), .queueNext(let trackID):
            guard let found = track(trackID), found.duration > 0 else { throw .unknownTrack(trackID) }
            let entry = TimelineEntry(
                id: EntryIDs.make(using: &rng), trackID: found.id, start: now, duration: found.duration,
                source: .dj)
            if case .append = command {
                try next.timeline.append(entry, at: now)
            } else {
                try next.timeline.insertNext(entry, at: now)
            }
        case .remove(let entryID):
            try next.refuseIfPlayed(entryID)
            _ = try next.timeline.remove(entryID, at: now)
        case .skip(let entryID):
            if let entryID { try next.refuseIfPlayed(entryID) }
            let cut = try next.timeline.skip(expected: entryID, at: now, lead: next.pausedAt == nil ? lead : 0)
            // With a lead the cut entry plays on briefly and reaches history later.
            if cut.duration > 0, cut.expiration <= now {
                next.remember([cut])
                outcome.played.append(cut)
            }
        case .pause:
            guard next.pausedAt == nil else { throw .paused }
            if next.timeline.current(at: now)?.source == .live { throw .live }
            let played = try next.timeline.splitCurrent(at: now, idForRest: EntryIDs.make(using: &rng))
            next.remember([played])
            outcome.played.append(played)
            next.pausedAt = now
        case .resume:
            guard let pausedAt = next.pausedAt else { throw .notPaused }
            next.timeline.shift(by: clockNow + max(0, lead) - pausedAt)
            next.pausedAt = nil
        case .seek(let position):
            guard next.pausedAt == nil else { throw .paused }
            if next.timeline.current(at: now)?.source == .live { throw .live }
            let played = try next.timeline.seek(to: position, at: now, idForRest: EntryIDs.make(using: &rng))
            if played.duration > 0 {
                next.remember([played])
                outcome.played.append(played)
            }
        case .move(let entryID, let toIndex):
            try next.refuseIfPlayed(entryID)
            try next.timeline.move(entryID, toIndex: toIndex, at: now)
        case .request, .vote, .withdraw, .moveRequest, .vetoRequest, .playRequestNow, .liftVeto, .voteSkip, .thumb, .ballotVote,
            .elect, .volumeVote, .setVolume:
            throw .notAnEdit(command.op)
        }
        _ = next.bump()
        outcome.changed = true
        self = next
        return outcome
    }

    /// Puts a listener's request on the timeline, ahead of the robot's
    /// picks: after the voice clips waiting and the DJ's own picks, or with
    /// `first` right after the entry that plays and the clips waiting (a
    /// clip the host sent plays within one song, even of a "play now").
    public mutating func schedule(
        _ request: SongRequest, entryID: EntryID, first: Bool, at clockNow: EpochMillis
    ) throws(TimelineError) -> Outcome {
        var next = self
        var outcome = next.settle(at: clockNow)
        let now = next.timelineTime(at: clockNow)
        let entry = TimelineEntry(
            id: entryID, trackID: request.trackID, start: now, duration: request.durationMs, source: .request)
        try next.timeline.insertNext(entry, at: now)
        try next.place(entryID, behind: first ? [.voice] : [.voice, .dj], at: now)
        // The robot may have lined up the same song: the request takes its
        // place rather than play it twice.
        try next.removeUpcoming(
            Set(next.timeline.upcoming(at: now).filter { $0.source == .robot && $0.trackID == request.trackID }.map(\.id)),
            at: now)
        _ = next.bump()
        outcome.changed = true
        self = next
        return outcome
    }

    /// Moves an upcoming entry to follow the run of upcoming entries of
    /// `sources` at the head of Up Next (to the head with none). An entry
    /// that plays already (the timeline was empty) stays.
    private mutating func place(_ entryID: EntryID, behind sources: Set<EntrySource>, at now: EpochMillis)
        throws(TimelineError)
    {
        let upcoming = timeline.upcoming(at: now)
        guard upcoming.contains(where: { $0.id == entryID }) else { return }
        let index = upcoming.lazy.filter { $0.id != entryID }.prefix { sources.contains($0.source) }.count
        try timeline.move(entryID, toIndex: index, at: now)
    }

    /// Takes a lined-up request's entry off the timeline (it was withdrawn,
    /// vetoed or played now instead); nothing when there is none.
    public mutating func takeOff(_ entryID: EntryID?, at clockNow: EpochMillis) throws(TimelineError) -> Outcome {
        guard let entryID, timeline.upcoming(at: timelineTime(at: clockNow)).contains(where: { $0.id == entryID }) else {
            return Outcome()
        }
        var next = self
        var outcome = next.settle(at: clockNow)
        try next.removeUpcoming([entryID], at: next.timelineTime(at: clockNow))
        outcome.changed = next.bump()
        self = next
        return outcome
    }

    /// Takes the robot's upcoming picks of `trackIDs` off the timeline (a
    /// guest asked for one, or the host vetoed it); the robot fills again.
    public mutating func dropRobotPicks(of trackIDs: Set<TrackID>, at clockNow: EpochMillis) -> Outcome {
        var outcome = settle(at: clockNow)
        let now = timelineTime(at: clockNow)
        let picks = timeline.upcoming(at: now).filter { $0.source == .robot && trackIDs.contains($0.trackID) }
        guard !picks.isEmpty, (try? removeUpcoming(Set(picks.map(\.id)), at: now)) != nil else { return outcome }
        outcome.changed = bump()
        return outcome
    }

    /// Takes `ids` off Up Next, and with them every robot pick after the
    /// first of them: the robot chose each pick against the songs before
    /// it, so one taken out from under it could bring a repeat closer than
    /// the rule allows. The robot fills again in the same event.
    private mutating func removeUpcoming(_ ids: Set<EntryID>, at now: EpochMillis) throws(TimelineError) {
        let upcoming = timeline.upcoming(at: now)
        guard let first = upcoming.firstIndex(where: { ids.contains($0.id) }) else { return }
        for entry in upcoming[first...] where ids.contains(entry.id) || entry.source == .robot {
            _ = try timeline.remove(entry.id, at: now)
        }
    }

    /// Lines up the lobby's winner to start when the song playing ends, or
    /// after the voice clips waiting there (a host's clip plays within one
    /// song). It takes the place of the robot's pick that was next (and of
    /// any robot pick of the same song), so the schedule doesn't grow by a
    /// song per ballot.
    public mutating func elect(
        _ track: PoolTrack, entryID: EntryID, why: String?, at clockNow: EpochMillis
    ) throws(TimelineError) -> Outcome {
        var next = self
        var outcome = next.settle(at: clockNow)
        let now = next.timelineTime(at: clockNow)
        let displaced = next.timeline.upcoming(at: now).first { $0.source != .voice }
        let entry = TimelineEntry(
            id: entryID, trackID: track.id, start: now, duration: track.duration, source: .elected, why: why)
        try next.timeline.insertNext(entry, at: now)
        try next.place(entryID, behind: [.voice], at: now)
        // The winner takes the displaced pick's place one for one; a robot
        // pick of the same song later on goes, with the picks after it.
        if let displaced, displaced.source == .robot { _ = try next.timeline.remove(displaced.id, at: now) }
        try next.removeUpcoming(
            Set(next.timeline.upcoming(at: now).filter { $0.source == .robot && $0.trackID == track.id }.map(\.id)),
            at: now)
        _ = next.bump()
        outcome.changed = true
        self = next
        return outcome
    }

    // MARK: Live sources

    /// How long a live entry is scheduled for while its source is on the
    /// air: its real length is known when the source leaves.
    public static let liveLength: Int64 = 24 * 3_600_000

    /// The live entry on the schedule (playing, or about to after a cut's
    /// lead), if any.
    public func liveEntry(at clockNow: EpochMillis) -> TimelineEntry? {
        let now = timelineTime(at: clockNow)
        return timeline.entries.first { $0.source == .live && $0.expiration > now }
    }

    /// The source of `trackID`'s live entry is still on the air: its entry
    /// is scheduled on for another `liveLength` from now, so a show longer
    /// than a day never runs out of timeline. Only extends: a live entry no
    /// longer on the schedule (ended, or replaced) is left alone.
    public mutating func renewLive(trackID: TrackID, at clockNow: EpochMillis) -> Outcome {
        var outcome = settle(at: clockNow)
        guard let live = liveEntry(at: clockNow), live.trackID == trackID else { return outcome }
        let end = max(clockNow, live.start) + Self.liveLength
        guard end > live.expiration else { return outcome }
        _ = timeline.reschedule(end: end, of: live.id, at: clockNow)
        outcome.changed = bump()
        return outcome
    }

    /// A live source came on the air: its entry takes over the timeline
    /// `lead` ms from now, cutting the song that plays as a skip would.
    /// The same source back within its grace carries on in the entry it
    /// had; another person's source replaces it. A pause ends: live audio
    /// can't wait.
    public mutating func goLive(_ entry: TimelineEntry, at clockNow: EpochMillis, lead: Int64) -> Outcome {
        var outcome = settle(at: clockNow)
        if let pausedAt {
            timeline.shift(by: clockNow - pausedAt)
            self.pausedAt = nil
        }
        if let live = liveEntry(at: clockNow) {
            if live.trackID == entry.trackID {
                _ = timeline.reschedule(end: max(clockNow, live.start) + Self.liveLength, of: live.id, at: clockNow)
                outcome.changed = bump()
                return outcome
            }
            _ = timeline.reschedule(end: max(clockNow, live.start), of: live.id, at: clockNow)
            outcome.merge(settle(at: clockNow))
        }
        var entry = entry
        entry.source = .live
        entry.duration = Self.liveLength
        entry.offset = 0
        if let cut = timeline.cutIn(entry, at: clockNow, lead: lead), cut.duration > 0 {
            remember([cut])
            outcome.played.append(cut)
        }
        outcome.changed = bump()
        return outcome
    }

    /// Puts a voice clip's entry after the entry playing, behind clips
    /// already waiting there; what follows moves later by its length.
    public mutating func insertVoice(_ entry: TimelineEntry, at clockNow: EpochMillis) throws(TimelineError) -> Outcome {
        var next = self
        var outcome = next.settle(at: clockNow)
        try next.timeline.insertNext(entry, at: next.timelineTime(at: clockNow), behind: .voice)
        outcome.changed = next.bump()
        self = next
        return outcome
    }

    /// The live source left: its entry ends `grace` ms from now unless the
    /// source comes back first (`goLive` again), and the songs lined up
    /// behind it play from then.
    public mutating func liveLeft(trackID: TrackID, at clockNow: EpochMillis, grace: Int64) -> Outcome {
        var outcome = settle(at: clockNow)
        guard let live = liveEntry(at: clockNow), live.trackID == trackID else { return outcome }
        _ = timeline.reschedule(end: max(clockNow, live.start) + max(0, grace), of: live.id, at: clockNow)
        outcome.changed = bump()
        return outcome
    }

    /// A song recognised in a live show's audio: into history at once (the
    /// show is still on), where "what was on at …" and the robot's "not
    /// again so soon" both find it.
    public mutating func heardOnLive(_ entry: TimelineEntry) -> Outcome {
        var entry = entry
        entry.source = .heard
        remember([entry])
        return Outcome(played: [entry])
    }

    /// The songs played most recently, newest first, the one playing
    /// included: what "no repeats within N plays" looks at. Voice clips and
    /// live shows are not songs, so they don't count as plays.
    public func latestPlays(at clockNow: EpochMillis) -> [TrackID] {
        let now = timelineTime(at: clockNow)
        let playing = timeline.entries.filter { $0.start <= now }
        return (recentHistory + playing).filter(\.isSong).map(\.trackID).reversed()
    }

    /// Songs played and scheduled, oldest first: what the robot avoids.
    private var recentTrackIDs: [TrackID] {
        (recentHistory + timeline.entries).filter(\.isSong).map(\.trackID)
    }

    private func refuseIfPlayed(_ entryID: EntryID) throws(TimelineError) {
        if recentHistory.contains(where: { $0.id == entryID }) { throw .alreadyPlayed(entryID) }
    }

    private mutating func remember(_ played: [TimelineEntry]) {
        guard !played.isEmpty else { return }
        recentHistory.append(contentsOf: played)
        if recentHistory.count > Self.recentHistoryLimit {
            recentHistory.removeFirst(recentHistory.count - Self.recentHistoryLimit)
        }
    }

    /// Raises the revision; returns true so call sites read as "changed".
    private mutating func bump() -> Bool {
        revision += 1
        return true
    }
}
