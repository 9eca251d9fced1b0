/// A station's schedule: entries back to back at absolute instants.
///
/// Invariant: every entry starts exactly when the one before it expires (no
/// gaps, no overlaps). Each edit takes `now` from the caller and re-times the
/// entries after the edit point, so the invariant holds after every call.
/// Entries that have expired stay until `prune(at:)` hands them to history.
public struct Timeline: Sendable, Codable, Equatable {
    public private(set) var entries: [TimelineEntry]

    /// The most upcoming entries a timeline holds; bounds memory per station.
    public static let maximumUpcoming = 500

    public init(entries: [TimelineEntry] = []) {
        self.entries = entries
    }

    // MARK: Reading

    /// The entry playing at `now`, derived from the clock.
    public func current(at now: EpochMillis) -> TimelineEntry? {
        entries.first { $0.isPlaying(at: now) }
    }

    /// Entries that start after `now`, in order.
    public func upcoming(at now: EpochMillis) -> [TimelineEntry] {
        entries.filter { $0.start > now }
    }

    /// How far ahead of `now` the schedule reaches.
    public func scheduledAhead(at now: EpochMillis) -> Int64 {
        guard let last = entries.last else { return 0 }
        return max(0, last.expiration - now)
    }

    public var isConsistent: Bool {
        zip(entries, entries.dropFirst()).allSatisfy { $0.expiration == $1.start }
    }

    // MARK: Edits

    /// Removes and returns the entries that expired at or before `now`.
    public mutating func prune(at now: EpochMillis) -> [TimelineEntry] {
        let expiredCount = entries.prefix { $0.expiration <= now }.count
        let expired = Array(entries.prefix(expiredCount))
        entries.removeFirst(expiredCount)
        return expired
    }

    /// Adds an entry at the end. An empty timeline starts it at `now`.
    public mutating func append(_ entry: TimelineEntry, at now: EpochMillis) throws(TimelineError) {
        try checkRoom(at: now)
        var entry = entry
        entry.start = entries.last?.expiration ?? now
        entries.append(entry)
    }

    /// Inserts an entry as "Up Next": after the current entry and after any DJ
    /// picks already lined up behind it, so several picks play in the order
    /// they were added, ahead of the robot's. (`behind` names the source
    /// lined up that way: voice clips line up behind each other, before the
    /// DJ's picks.)
    public mutating func insertNext(_ entry: TimelineEntry, at now: EpochMillis, behind source: EntrySource = .dj)
        throws(TimelineError)
    {
        try checkRoom(at: now)
        var index = currentIndex(at: now).map { $0 + 1 } ?? 0
        while index < entries.count, entries[index].source == source {
            index += 1
        }
        var entry = entry
        entry.start = index == 0 ? now : entries[index - 1].expiration
        entries.insert(entry, at: index)
        retime(from: index + 1, at: now)
    }

    /// Removes an upcoming entry; the ones after it move earlier.
    public mutating func remove(_ id: EntryID, at now: EpochMillis) throws(TimelineError) -> TimelineEntry {
        guard let index = entries.firstIndex(where: { $0.id == id }) else {
            throw .unknownEntry(id)
        }
        let entry = entries[index]
        if entry.expiration <= now { throw .alreadyPlayed(id) }
        if entry.start <= now { throw .entryIsPlaying(id) }
        entries.remove(at: index)
        retime(from: index, at: now)
        return entry
    }

    /// Cuts the current entry at `now`; everything after it moves earlier.
    /// Returns the cut entry, which has now played.
    ///
    /// - Parameter expected: the entry the client believes is playing. When
    ///   given and different, the skip is refused, so a resent or racing skip
    ///   never skips two tracks.
    ///
    /// - Parameter lead: how long the current entry keeps playing before the
    ///   cut, so every client can have the next track ready at the same
    ///   instant. With a lead the cut entry stays on the timeline until then.
    public mutating func skip(expected: EntryID? = nil, at now: EpochMillis, lead: Int64 = 0) throws(TimelineError)
        -> TimelineEntry
    {
        guard let index = currentIndex(at: now) else { throw .nothingPlaying }
        if let expected, entries[index].id != expected {
            throw .notCurrent(expected: expected)
        }
        entries.removeFirst(index)  // anything before the current entry had expired
        let cutAt = min(entries[0].expiration, now + max(0, lead))
        entries[0].duration = max(0, cutAt - entries[0].start)
        let cut = entries[0]
        if cutAt <= now {
            entries.removeFirst()
            retime(from: 0, at: now)
        } else {
            retime(from: 1, at: now)
        }
        return cut
    }

    /// Moves an upcoming entry to `toIndex` among the upcoming entries (0 = next).
    public mutating func move(_ id: EntryID, toIndex: Int, at now: EpochMillis) throws(TimelineError) {
        let upcomingStart = entries.firstIndex { $0.start > now } ?? entries.count
        let upcomingCount = entries.count - upcomingStart
        guard let from = entries.firstIndex(where: { $0.id == id }) else { throw .unknownEntry(id) }
        if entries[from].expiration <= now { throw .alreadyPlayed(id) }
        if from < upcomingStart { throw .entryIsPlaying(id) }
        guard toIndex >= 0, toIndex < upcomingCount else {
            throw .indexOutOfRange(toIndex, count: upcomingCount)
        }
        let entry = entries.remove(at: from)
        entries.insert(entry, at: upcomingStart + toIndex)
        retime(from: upcomingStart, at: now)
    }

    /// Splits the current entry at `now`: the part that played (returned, for
    /// history) and the rest, which starts at `now` and begins `played` ms
    /// further into the file. Pause and seek are built on this.
    public mutating func splitCurrent(at now: EpochMillis, idForRest: EntryID) throws(TimelineError) -> TimelineEntry {
        guard let index = currentIndex(at: now) else { throw .nothingPlaying }
        entries.removeFirst(index)  // anything before the current entry had expired
        var played = entries[0]
        let elapsed = now - played.start
        var rest = played
        played.duration = elapsed
        rest.id = idForRest
        rest.start = now
        rest.offset += elapsed
        rest.duration -= elapsed
        entries[0] = rest
        return played
    }

    /// Seeks the current entry so that file position `position` plays at
    /// `now`; what played so far is returned for history.
    public mutating func seek(to position: Int64, at now: EpochMillis, idForRest: EntryID) throws(TimelineError)
        -> TimelineEntry
    {
        guard let current = current(at: now) else { throw .nothingPlaying }
        let length = current.offset + current.duration
        guard position >= 0, position < length else { throw .positionOutOfRange(position, length: length) }
        let played = try splitCurrent(at: now, idForRest: idForRest)
        entries[0].offset = position
        entries[0].duration = length - position
        retime(from: 1, at: now)
        return played
    }

    /// Cuts `entry` into the schedule at `now + lead`: the entry playing
    /// stops there (as a skip with a lead does) and everything after it
    /// moves behind the new one. Returns the cut entry when it has stopped
    /// by `now` (nothing was playing, or no lead), for history.
    public mutating func cutIn(_ entry: TimelineEntry, at now: EpochMillis, lead: Int64 = 0) -> TimelineEntry? {
        var entry = entry
        guard let index = currentIndex(at: now) else {
            entries.removeFirst(entries.prefix { $0.expiration <= now }.count)
            entry.start = now
            entries.insert(entry, at: 0)
            retime(from: 1, at: now)
            return nil
        }
        entries.removeFirst(index)  // anything before the current entry had expired
        let cutAt = min(entries[0].expiration, now + max(0, lead))
        entries[0].duration = max(0, cutAt - entries[0].start)
        entry.start = cutAt
        var played: TimelineEntry?
        if cutAt <= now {
            played = entries.removeFirst()
            entries.insert(entry, at: 0)
        } else {
            entries.insert(entry, at: 1)
        }
        retime(from: entries.firstIndex { $0.id == entry.id }! + 1, at: now)
        return played
    }

    /// Makes an entry that has not expired end at `end` (never before it
    /// starts); the entries after it follow it. A live show's length is
    /// only known when its source leaves. Returns false when no such entry
    /// is on the schedule.
    public mutating func reschedule(end: EpochMillis, of id: EntryID, at now: EpochMillis) -> Bool {
        guard let index = entries.firstIndex(where: { $0.id == id }), entries[index].expiration > now else { return false }
        entries[index].duration = max(0, end - entries[index].start)
        if entries[index].duration == 0 {
            entries.remove(at: index)
            retime(from: index, at: now)
        } else {
            retime(from: index + 1, at: now)
        }
        return true
    }

    /// Moves every entry by `delta` ms (resuming after a pause).
    public mutating func shift(by delta: Int64) {
        for i in entries.indices { entries[i].start += delta }
    }

    /// Replaces every entry; used when a quiet station goes back on the air.
    /// The first entry keeps its start; the rest follow it back to back.
    mutating func replaceAll(with newEntries: [TimelineEntry], firstStart: EpochMillis) {
        entries = newEntries
        guard !entries.isEmpty else { return }
        entries[0].start = firstStart
        retime(from: 1, at: firstStart)
    }

    // MARK: Helpers

    private func currentIndex(at now: EpochMillis) -> Int? {
        entries.firstIndex { $0.isPlaying(at: now) }
    }

    private func checkRoom(at now: EpochMillis) throws(TimelineError) {
        if upcoming(at: now).count >= Self.maximumUpcoming {
            throw .timelineFull(limit: Self.maximumUpcoming)
        }
    }

    /// Re-times entries from `index` on so each starts when the previous one
    /// expires. An entry with nothing before it starts at `now`.
    private mutating func retime(from index: Int, at now: EpochMillis) {
        guard index < entries.count else { return }
        for i in index..<entries.count {
            if i > 0 {
                entries[i].start = entries[i - 1].expiration
            } else if !entries[i].isPlaying(at: now) {
                entries[i].start = now
            }
        }
    }
}
