/// One ICY metadata block, as Icecast 2.4 sends it inside an MP3 stream to
/// a client that asked with `Icy-MetaData: 1`: a length byte N, then N × 16
/// bytes holding `StreamTitle='Artist - Title';`, padded with NUL.
///
/// Like Icecast, the title is written as it is, in UTF-8, quotes included:
/// players read up to the closing `';`. Unlike Icecast, which refuses a
/// title longer than a block can hold (255 × 16 bytes) and keeps the old
/// one, a long title is cut at a character boundary, so the stream never
/// names the previous song.
public struct IcyMetadata: Sendable, Equatable {
    /// The bytes of the block, length byte first.
    public let bytes: [UInt8]

    /// The most a block can hold after its length byte.
    public static let maxBodyBytes = 255 * 16

    /// The block that says nothing changed: a single 0 byte.
    public static let unchanged = IcyMetadata(bytes: [0])

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The block for a song: "Artist - Title", or whichever of the two is
    /// known; an empty `StreamTitle=''` when neither is.
    public init(artist: String?, title: String?) {
        let parts = [artist, title].compactMap { $0?.trimmingSpaces }.filter { !$0.isEmpty }
        self.init(streamTitle: parts.joined(separator: " - "))
    }

    public init(streamTitle: String) {
        let prefix = Array("StreamTitle='".utf8)
        let suffix = Array("';".utf8)
        let room = Self.maxBodyBytes - prefix.count - suffix.count
        let title = Self.cut(streamTitle, toBytes: room)
        let body = prefix + title + suffix
        let blocks = (body.count + 15) / 16
        var bytes = [UInt8(blocks)]
        bytes += body
        bytes += [UInt8](repeating: 0, count: blocks * 16 - body.count)
        self.bytes = bytes
    }

    /// The title's UTF-8, at most `limit` bytes, never ending inside a
    /// character (a NUL would end the title early for some players, so
    /// NULs and other control characters become spaces).
    private static func cut(_ text: String, toBytes limit: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(min(limit, text.utf8.count))
        for character in text {
            let shown = character.unicodeScalars.allSatisfy { $0.value < 0x20 || $0.value == 0x7F } ? " " : character
            let encoded = Array(String(shown).utf8)
            if out.count + encoded.count > limit { break }
            out += encoded
        }
        return out
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var view = Substring(self)
        while let first = view.first, first.isWhitespace { view.removeFirst() }
        while let last = view.last, last.isWhitespace { view.removeLast() }
        return String(view)
    }
}
