/// One minute of a station's audience, as the per-minute series keeps it.
public struct ListenerMinute: Sendable, Equatable, Codable {
    /// The minute's first instant (a multiple of 60,000).
    public var minute: EpochMillis
    /// The most people listening at once during the minute.
    public var peak: Int
    /// Person-milliseconds of listening in the minute (60,000 per person
    /// who stayed all of it).
    public var listenerMillis: Int64
    /// People who stopped listening during the minute, and how long they
    /// had stayed, summed.
    public var departures: Int
    public var stayMillis: Int64

    public init(minute: EpochMillis, peak: Int, listenerMillis: Int64, departures: Int = 0, stayMillis: Int64 = 0) {
        self.minute = minute
        self.peak = peak
        self.listenerMillis = listenerMillis
        self.departures = departures
        self.stayMillis = stayMillis
    }

    public static let length: EpochMillis = 60_000

    /// The same minute as seen twice (a station reloaded mid-minute, or
    /// the saved part and the part still open): the higher peak, the
    /// listening and the departures added.
    public func merging(_ other: ListenerMinute) -> ListenerMinute {
        ListenerMinute(
            minute: minute, peak: max(peak, other.peak), listenerMillis: listenerMillis + other.listenerMillis,
            departures: departures + other.departures, stayMillis: stayMillis + other.stayMillis)
    }

    /// Minutes by their start, the same minute merged, oldest first.
    public static func merged(_ minutes: [ListenerMinute]) -> [ListenerMinute] {
        var byStart: [EpochMillis: ListenerMinute] = [:]
        for minute in minutes { byStart[minute.minute] = byStart[minute.minute].map { $0.merging(minute) } ?? minute }
        return byStart.values.sorted { $0.minute < $1.minute }
    }

    public static func start(of instant: EpochMillis) -> EpochMillis {
        instant - ((instant % length) + length) % length
    }
}

/// Turns a station's changing count into the per-minute series: the peak,
/// the listener-time and the departures of each minute. Pure: the caller
/// passes the clock. A minute nobody listened in is not kept.
public struct AudienceMeter: Sendable, Equatable {
    private var current: ListenerMinute?
    private var count = 0
    private var countSince: EpochMillis = 0

    public init() {}

    /// The count is `count` from `now` on. Returns the minutes that ended.
    public mutating func observe(count newCount: Int, at now: EpochMillis) -> [ListenerMinute] {
        let ended = advance(to: now)
        count = newCount
        countSince = now
        if newCount > 0 {
            if current == nil {
                current = ListenerMinute(minute: ListenerMinute.start(of: now), peak: 0, listenerMillis: 0)
            }
            current!.peak = max(current!.peak, newCount)
        }
        return ended
    }

    /// Someone stopped listening after `stayed` milliseconds.
    public mutating func departed(stayed: Int64, at now: EpochMillis) -> [ListenerMinute] {
        let ended = advance(to: now)
        if current == nil {
            current = ListenerMinute(minute: ListenerMinute.start(of: now), peak: count, listenerMillis: 0)
        }
        current!.departures += 1
        current!.stayMillis += stayed
        return ended
    }

    /// The minutes not handed out yet at `now`: any that ended since the
    /// last event, and the open one so far. Reading changes nothing.
    public func minutesSoFar(at now: EpochMillis) -> [ListenerMinute] {
        var copy = self
        let ended = copy.advance(to: now)
        return ended + (copy.current.map { [$0] } ?? [])
    }

    /// When the current minute ends, if one is open.
    public var nextBoundary: EpochMillis? {
        current.map { $0.minute + ListenerMinute.length }
    }

    /// Closes every minute that ended by `now`: the open one, then each
    /// whole minute the count stayed above nothing.
    public mutating func advance(to now: EpochMillis) -> [ListenerMinute] {
        var ended: [ListenerMinute] = []
        while var minute = current, now >= minute.minute + ListenerMinute.length {
            let end = minute.minute + ListenerMinute.length
            minute.listenerMillis += Int64(count) * (end - max(countSince, minute.minute))
            ended.append(minute)
            countSince = end
            current = count > 0 ? ListenerMinute(minute: end, peak: count, listenerMillis: 0) : nil
        }
        if var minute = current, now > countSince {
            minute.listenerMillis += Int64(count) * (now - max(countSince, minute.minute))
            countSince = now
            current = minute
        }
        return ended
    }
}
