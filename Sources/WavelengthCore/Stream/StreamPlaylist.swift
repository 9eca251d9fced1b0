/// The small files that point a player at a station's stream: `.m3u` and
/// `.pls`, one entry each, as every player since Winamp reads them.
///
/// A station's name is the listener's words: a line break in it would start
/// a new line of the playlist (another entry, another URL), so line breaks
/// and other control characters become spaces.
public struct StreamPlaylist: Sendable, Equatable {
    public let name: String
    public let url: String

    public init(name: String, url: String) {
        self.name = Self.oneLine(name)
        self.url = Self.oneLine(url)
    }

    /// `audio/x-mpegurl`
    public var m3u: String {
        "#EXTM3U\r\n#EXTINF:-1,\(name)\r\n\(url)\r\n"
    }

    /// `audio/x-scpls`
    public var pls: String {
        "[playlist]\r\nNumberOfEntries=1\r\nFile1=\(url)\r\nTitle1=\(name)\r\nLength1=-1\r\nVersion=2\r\n"
    }

    private static func oneLine(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map {
            $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" ? " " : $0
        }))
    }
}
