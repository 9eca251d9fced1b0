/// A station's shows together: what airs in a window, what is on now and
/// next, and whether a show would overlap another.
public struct StationSchedule: Sendable {
    public var shows: [Show]

    /// How far ahead a new or edited show is checked for overlaps.
    public static let clashHorizonDays = 731
    /// The most shows one station keeps.
    public static let maxShows = 200

    public init(shows: [Show]) {
        self.shows = shows
    }

    /// Every show's episodes overlapping `from..<to`, by start.
    public func episodes(overlapping from: EpochMillis, _ to: EpochMillis) -> [Episode] {
        shows.flatMap { $0.episodes(overlapping: from, to) }
            .sorted { ($0.start, $0.showID) < ($1.start, $1.showID) }
    }

    /// The episode airing at `now`.
    public func onAir(at now: EpochMillis) -> Episode? {
        episodes(overlapping: now, now + 1).first
    }

    /// The episode airing at `now`, and the next to start after it.
    public func nowAndNext(at now: EpochMillis) -> (now: Episode?, next: Episode?) {
        let current = onAir(at: now)
        let next = shows.compactMap { show in show.upcoming(after: now, count: 2).first { $0.start > now } }
            .min { ($0.start, $0.showID) < ($1.start, $1.showID) }
        return (current, next)
    }

    /// The first episode of `candidate`, from `now` on, that would overlap
    /// an episode of another show, with that episode. `candidate` replaces
    /// the show with its id, if there is one.
    public func firstClash(with candidate: Show, from now: EpochMillis) -> ScheduleClash? {
        let to = now + EpochMillis(Self.clashHorizonDays) * 86_400_000
        let mine = candidate.episodes(overlapping: now, to)
        guard !mine.isEmpty else { return nil }
        var clashes: [ScheduleClash] = []
        for other in shows where other.id != candidate.id {
            let theirs = other.episodes(overlapping: now, to)
            // Both lists are sorted by start: walk them together.
            var i = 0, j = 0
            while i < mine.count, j < theirs.count {
                if mine[i].overlaps(theirs[j]) {
                    clashes.append(ScheduleClash(episode: mine[i], other: other, otherEpisode: theirs[j]))
                    break
                }
                if mine[i].end <= theirs[j].end { i += 1 } else { j += 1 }
            }
        }
        return clashes.min { $0.episode.start < $1.episode.start }
    }
}

/// A show's episode that would overlap another show's.
public struct ScheduleClash: Sendable, Equatable {
    public var episode: Episode
    public var other: Show
    public var otherEpisode: Episode
}
