import Foundation
import WavelengthCore
import WavelengthStore
import WavelengthWire

extension TrackSummary {
    init(_ record: TrackRecord) {
        self.init(
            id: record.id, tags: record.metadata.tags, format: record.metadata.format.rawValue,
            audioURL: "/api/tracks/\(record.id)/audio",
            artworkURL: record.hasArtwork ? "/api/tracks/\(record.id)/artwork" : nil,
            gainDb: record.loudness.map { Self.hundredths(Loudness.gainDb(integrated: $0, truePeak: record.truePeak)) },
            headroomDb: record.loudness == nil ? nil : Loudness.headroomDb(truePeak: record.truePeak).map(Self.hundredths),
            tempo: record.tempo)
    }

    /// The summary as a station's timeline shows it: a library track's
    /// audio and artwork name the station (`?station=`). The track routes
    /// serve an unshared upload only to those who may listen to the station
    /// that plays it (`TracksController`). Only the node running a station
    /// converts what it plays (`OnAirTracks` is per node), and a cluster's
    /// balancer hashes this parameter as it hashes the station's own routes
    /// (deploy/haproxy.cfg), so both are asked of that node.
    func heard(on station: StationID) -> TrackSummary {
        guard audioURL.hasPrefix("/api/tracks/"), !audioURL.contains("?"),
            let encoded = station.addingPercentEncoding(withAllowedCharacters: .alphanumerics)
        else { return self }
        var summary = self
        summary.audioURL += "?station=" + encoded
        if let artwork = artworkURL, !artwork.contains("?") { summary.artworkURL = artwork + "?station=" + encoded }
        return summary
    }

    /// A gain to the hundredth of a dB, far below what anyone hears: sent
    /// as `-1.9`, not `-1.9000000000000004`, in every entry of every update.
    private static func hundredths(_ db: Double) -> Double {
        (db * 100).rounded() / 100
    }

    /// A live show: its audio is the station's relay of the source, its
    /// artist the person on the air (the title is the entry's, see
    /// `EntryView`).
    static func live(_ id: TrackID, stationID: StationID, host: String) -> TrackSummary {
        TrackSummary(
            id: id, tags: TrackTags(title: "Live", artist: host, album: "Live", albumArtist: "", durationMs: StationState.liveLength),
            format: "mp3", audioURL: "/live/\(stationID).mp3?edge=1", artworkURL: nil)
    }

    /// A voice clip: its author is the artist; it was brought to the
    /// station's loudness when it was sent, so players add no gain.
    static func clip(_ clip: VoiceClip) -> TrackSummary {
        TrackSummary(
            id: clip.trackID,
            tags: TrackTags(
                title: clip.note.isEmpty ? "Voice clip" : clip.note, artist: clip.name, album: "Voice clip", albumArtist: "",
                durationMs: clip.durationMs),
            format: "mp3", audioURL: "/api/clips/\(clip.id)/audio", artworkURL: nil)
    }

    /// Stands in for a track that left the library while still on a timeline.
    static func unavailable(_ id: TrackID, duration: Int64) -> TrackSummary {
        TrackSummary(
            id: id, tags: TrackTags(title: "Unavailable track", artist: "", album: "", albumArtist: "", durationMs: duration),
            format: "", audioURL: "/api/tracks/\(id)/audio", artworkURL: nil)
    }
}

extension TrackDetails {
    init(_ record: TrackRecord) {
        self.init(
            track: TrackSummary(record), codec: record.codec, isrc: record.isrc,
            musicBrainzRecordingID: record.musicBrainzRecordingID, hasLyrics: record.lyricsPath != nil,
            lyricsURL: record.lyricsPath == nil ? nil : "/api/tracks/\(record.id)/lyrics")
    }
}
