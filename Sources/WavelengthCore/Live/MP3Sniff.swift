/// Tells MP3 from anything else at the start of a live source: an ID3 tag
/// or an MPEG audio frame header (11 set sync bits, a valid layer, bitrate
/// and sample rate) within the first bytes. A source that sends something
/// else (an Ogg stream under an MP3 type, text, noise) is closed rather than
/// relayed to players that would choke on it.
public struct MP3Sniff: Sendable {
    public enum Verdict: Sendable, Equatable { case unsure, mp3, notMP3 }

    public var limit: Int
    private var seen: [UInt8] = []
    /// Where the search for a frame header goes on from.
    private var scanned = 0
    private var verdict = Verdict.unsure

    public init(limit: Int = 64 * 1024) {
        self.limit = limit
    }

    /// Reads the next bytes of the source; once MP3, always MP3.
    public mutating func read(_ bytes: some Collection<UInt8>) -> Verdict {
        guard verdict == .unsure else { return verdict }
        seen.append(contentsOf: bytes.prefix(limit - seen.count + 4))
        if seen.starts(with: Array("ID3".utf8)) { verdict = .mp3; return verdict }
        var i = scanned
        scanned = max(0, seen.count - 3)
        while i + 3 <= seen.count {
            if Self.isFrameHeader(seen[i], seen[i + 1], seen[i + 2]) { verdict = .mp3; return verdict }
            i += 1
        }
        if seen.count >= limit { verdict = .notMP3 }
        return verdict
    }

    static func isFrameHeader(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> Bool {
        guard a == 0xFF, b & 0xE0 == 0xE0 else { return false }
        let version = (b >> 3) & 0x3, layer = (b >> 1) & 0x3
        let bitrate = c >> 4, rate = (c >> 2) & 0x3
        return version != 1 && layer != 0 && bitrate != 0 && bitrate != 0xF && rate != 3
    }
}
