import WavelengthCore
import WavelengthWire

extension StationState {
    /// What a timeline window shows at `clockNow`, before tracks are looked
    /// up: the hub that runs the station and a node relaying it (see
    /// `StationRelay`) show the same state the same way.
    struct WindowEntries {
        var clockNow: EpochMillis
        var current: TimelineEntry?
        var positionMs: Int64?
        var upcoming: [TimelineEntry]
        var upNextTotal: Int
        var history: [TimelineEntry]

        /// Every track the window names.
        var trackIDs: [TrackID] { ([current].compactMap { $0 } + upcoming + history).map(\.trackID) }
    }

    func windowEntries(at clockNow: EpochMillis, historyLimit: Int, upNextLimit: Int) -> WindowEntries {
        let now = timelineTime(at: clockNow)
        let current = timeline.current(at: now)
        let allUpcoming = timeline.upcoming(at: now)
        // Just after GO the held track's rest may not have started yet (a
        // resume takes effect a short lead ahead): it is still what plays.
        let history = JustPlayed.rows(
            history: recentHistory.filter { $0.expiration <= now }, current: current ?? allUpcoming.first,
            limit: historyLimit)
        return WindowEntries(
            clockNow: clockNow, current: current, positionMs: current.map { now - $0.start },
            upcoming: Array(allUpcoming.prefix(upNextLimit)), upNextTotal: allUpcoming.count, history: history)
    }

    /// The window of `entries`, each with its track (`unavailable` when the
    /// library no longer has it) as this station's timeline names it.
    func window(
        of entries: WindowEntries, stationID: StationID, tracks: [TrackID: TrackSummary]
    ) -> TimelineWindow {
        func view(_ entry: TimelineEntry) -> EntryView {
            EntryView(
                entry: entry,
                track: (tracks[entry.trackID] ?? .unavailable(entry.trackID, duration: entry.duration)).heard(on: stationID))
        }
        return TimelineWindow(
            stationID: stationID, revision: revision, serverTime: entries.clockNow, current: entries.current.map(view),
            positionMs: entries.positionMs, upNext: entries.upcoming.map(view), history: entries.history.map(view),
            pausedAt: pausedAt, upNextTotal: entries.upNextTotal)
    }
}
