import Synchronization
import WavelengthCore

/// The tracks stations with listeners are playing, have just played or will
/// play next: what a listener's player may need converted.
///
/// The transcoder starts ffmpeg, the costliest thing a request can start,
/// only for these (a transcode already cached is served to anyone): so only
/// listeners can make the server transcode, and only what they are hearing,
/// never the library wholesale. Hubs publish here after every event; the
/// audio route reads it without waiting on any station.
final class OnAirTracks: Sendable {
    private let stations = Mutex<[StationID: Set<TrackID>]>([:])

    /// The station's timeline while someone listens; none when nobody does.
    func publish(_ station: StationID, tracks: Set<TrackID>?) {
        stations.withLock { $0[station] = tracks }
    }

    func contains(_ track: TrackID) -> Bool {
        stations.withLock { stations in stations.values.contains { $0.contains(track) } }
    }

    /// Whether this station, with listeners here, plays the track now, has
    /// just played it or plays it next.
    func contains(_ track: TrackID, on station: StationID) -> Bool {
        stations.withLock { $0[station]?.contains(track) ?? false }
    }
}
