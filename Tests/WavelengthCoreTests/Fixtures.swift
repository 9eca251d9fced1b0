@testable import WavelengthCore

/// Tracks with round durations so expected start times are easy to read.
enum Fixtures {
    static let tracks: [PoolTrack] = [
        PoolTrack(id: "t1", artist: "Ada", duration: 100_000),
        PoolTrack(id: "t2", artist: "Ada", duration: 200_000),
        PoolTrack(id: "t3", artist: "Bo", duration: 150_000),
        PoolTrack(id: "t4", artist: "Cy", duration: 120_000),
        PoolTrack(id: "t5", artist: "Di", duration: 90_000),
    ]

    static func track(_ id: TrackID) -> PoolTrack? {
        tracks.first { $0.id == id }
    }

    static func artist(_ id: TrackID) -> String? {
        track(id)?.artist
    }

    static func entry(_ id: EntryID, _ trackID: TrackID, _ source: EntrySource = .dj) -> TimelineEntry {
        TimelineEntry(id: id, trackID: trackID, start: 0, duration: track(trackID)!.duration, source: source)
    }

    /// A timeline with e1 (t1, 100 s) playing from `start`, then e2 (t2) and e3 (t3).
    static func threeEntries(start: EpochMillis = 1_000_000) throws -> Timeline {
        var timeline = Timeline()
        try timeline.append(entry("e1", "t1"), at: start)
        try timeline.append(entry("e2", "t2", .robot), at: start)
        try timeline.append(entry("e3", "t3", .robot), at: start)
        return timeline
    }
}
