import WavelengthCore

/// A track's words for the listener screen: `GET /api/tracks/{id}/lyrics.json`.
public struct LyricsView: Sendable, Codable, Equatable {
    public struct Line: Sendable, Codable, Equatable {
        /// Where in the track the line is sung, in ms (the LRC offset
        /// applied); absent for unsynced words.
        public var timeMs: Int64?
        public var text: String

        public init(timeMs: Int64?, text: String) {
            self.timeMs = timeMs
            self.text = text
        }
    }

    public var trackID: TrackID
    public var synced: Bool
    /// Where the words come from: `lrc` (a sidecar file) or `tags`.
    public var source: String
    /// In time order when synced.
    public var lines: [Line]

    public init(trackID: TrackID, lyrics: Lyrics, source: String) {
        self.trackID = trackID
        self.synced = lyrics.isSynced
        self.source = source
        self.lines = lyrics.lines.map { Line(timeMs: $0.timeMs, text: $0.text) }
    }
}
