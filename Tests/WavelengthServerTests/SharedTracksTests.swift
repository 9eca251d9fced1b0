import Testing
import WavelengthWire
@testable import WavelengthServer

/// What a station's hub may name by id: never more than every connection
/// holds.
@Suite("Shared tracks")
struct SharedTracksTests {
    static func window(_ revision: Int64, _ tracks: [String]) -> TimelineWindow {
        let entries = tracks.enumerated().map { i, id in
            EntryView(
                entry: TimelineEntry(id: "e\(revision)-\(i)", trackID: id, start: Int64(i) * 1000, duration: 1000, source: .dj),
                track: TrackSummary(
                    id: id, tags: TrackTags(title: id, artist: "a", album: "b", albumArtist: "a", durationMs: 1000),
                    format: "mp3", audioURL: "/a/\(id)", artworkURL: nil))
        }
        return TimelineWindow(
            stationID: "s", revision: revision, serverTime: 0, current: entries.first, positionMs: 0,
            upNext: Array(entries.dropFirst()), history: [])
    }

    @Test func aBroadcastIsWhatEveryoneHolds() {
        var shared = SharedTracks()
        #expect(shared.known.tracks.isEmpty)
        shared.broadcast(Self.window(1, ["a", "b"]))
        #expect(Set(shared.known.tracks.keys) == ["a", "b"])
        shared.broadcast(Self.window(2, ["b", "c"]))
        #expect(Set(shared.known.tracks.keys) == ["b", "c"])
    }

    /// A listener who joins holds its snapshot's tracks only.
    @Test func aSnapshotNarrowsItToWhatTheNewcomerHolds() {
        var shared = SharedTracks()
        shared.broadcast(Self.window(1, ["a", "b", "c"]))
        shared.sent(Self.window(1, ["b", "c", "d"]))
        #expect(Set(shared.known.tracks.keys) == ["b", "c"])
    }

    /// Clients that already took a newer window ignore an older one, so the
    /// older one can't stand for what they hold.
    @Test func anOlderWindowOnlyNarrowsIt() {
        var shared = SharedTracks()
        shared.sent(Self.window(5, ["a", "b"]))
        shared.broadcast(Self.window(5, ["a", "b"]))
        shared.broadcast(Self.window(4, ["b", "z"]))
        #expect(Set(shared.known.tracks.keys) == ["b"])
        shared.sent(Self.window(7, ["b"]))
        shared.broadcast(Self.window(6, ["b", "y"]))
        #expect(Set(shared.known.tracks.keys) == ["b"])
    }
}
