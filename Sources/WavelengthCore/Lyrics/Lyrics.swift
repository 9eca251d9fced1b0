import Foundation

/// A song's words, as a listener's screen shows them: lines with the
/// position in the track each one is sung at (synced), or plain lines.
public struct Lyrics: Sendable, Equatable {
    public struct Line: Sendable, Equatable {
        /// Where in the track the line starts, in ms; nil for unsynced words.
        public var timeMs: Int64?
        public var text: String

        public init(timeMs: Int64?, text: String) {
            self.timeMs = timeMs
            self.text = text
        }
    }

    public var lines: [Line]
    public var isSynced: Bool { lines.contains { $0.timeMs != nil } }

    /// The most text read (a longer file is cut there), lines kept and the
    /// longest line: a lyrics file is small, and a hostile one stays small.
    public static let maxBytes = 256 * 1_024
    public static let maxLines = 2_000
    public static let maxLineLength = 500

    public init(lines: [Line]) {
        self.lines = lines
    }

    /// Reads LRC: `[mm:ss.xx]words`, several time tags on one line (a
    /// chorus sung twice), `[offset:±ms]` (positive: the words come sooner),
    /// metadata tags (`[ar:…]`, `[ti:…]`) skipped, and enhanced LRC's word
    /// times (`<mm:ss.xx>`) taken out of the words. Text with no time tags
    /// at all is unsynced lyrics, one line per line.
    public init(lrc text: String) {
        let text = String(decoding: text.utf8.prefix(Self.maxBytes), as: UTF8.self)
        var offset: Int64 = 0
        var timed: [Line] = []
        var plain: [Line] = []
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            var rest = Substring(raw)
            var times: [Int64] = []
            var isMetadata = false
            while rest.first == "[", let close = rest.firstIndex(of: "]") {
                let tag = rest[rest.index(after: rest.startIndex)..<close]
                if let time = Self.time(tag) {
                    times.append(time)
                } else if let colon = tag.firstIndex(of: ":") {
                    isMetadata = true
                    if tag[..<colon].lowercased() == "offset" {
                        offset = Int64(tag[tag.index(after: colon)...].trimmingCharacters(in: .whitespaces)) ?? offset
                    }
                } else {
                    break
                }
                rest = rest[rest.index(after: close)...]
            }
            let words = Self.clean(rest)
            if times.isEmpty {
                if !isMetadata { plain.append(Line(timeMs: nil, text: words)) }
            } else {
                for time in times { timed.append(Line(timeMs: max(0, time - offset), text: words)) }
            }
            if timed.count + plain.count >= Self.maxLines { break }
        }
        if timed.isEmpty {
            // Unsynced: trim blank lines at the ends.
            let first = plain.firstIndex { !$0.text.isEmpty } ?? plain.endIndex
            let last = plain.lastIndex { !$0.text.isEmpty } ?? plain.startIndex
            lines = first <= last && first < plain.endIndex ? Array(plain[first...last]) : []
        } else {
            // Stable: words tagged at the same time keep their file order.
            lines = timed.enumerated().sorted { ($0.element.timeMs!, $0.offset) < ($1.element.timeMs!, $1.offset) }.map(\.element)
        }
    }

    /// The line sung at `position` ms into the track: the last whose time
    /// has come (nil before the first, and for unsynced lyrics).
    public func lineIndex(at position: Int64) -> Int? {
        guard isSynced else { return nil }
        var found: Int?
        for (index, line) in lines.enumerated() {
            guard let time = line.timeMs, time <= position else { break }
            found = index
        }
        return found
    }

    /// `mm:ss`, `mm:ss.x`, `mm:ss.xx`, `mm:ss.xxx` (or `:` before the
    /// fraction, as some editors write) as ms; nil for anything else.
    static func time(_ tag: Substring) -> Int64? {
        let parts = tag.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, let minutes = Int64(parts[0]), minutes >= 0, minutes < 10_000 else { return nil }
        let secondsPart = parts[1].replacingOccurrences(of: ":", with: ".")
        let pieces = secondsPart.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let seconds = Int64(pieces[0]), (0..<60).contains(seconds), pieces[0].count <= 2 else { return nil }
        var millis: Int64 = 0
        if pieces.count == 2 {
            let fraction = pieces[1]
            guard !fraction.isEmpty, fraction.count <= 3, fraction.allSatisfy(\.isASCII), let value = Int64(fraction) else {
                return nil
            }
            millis = value * [100, 10, 1][fraction.count - 1]
        }
        return (minutes * 60 + seconds) * 1_000 + millis
    }

    /// The words without enhanced LRC's `<mm:ss.xx>` times, control
    /// characters or runs of space, and no longer than a line may be.
    static func clean(_ words: Substring) -> String {
        var out = ""
        var rest = words
        while let open = rest.firstIndex(of: "<") {
            out += rest[..<open]
            if let close = rest[open...].firstIndex(of: ">"), time(rest[rest.index(after: open)..<close]) != nil {
                rest = rest[rest.index(after: close)...]
            } else {
                out += "<"
                rest = rest[rest.index(after: open)...]
            }
        }
        out += rest
        let scalars = out.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) }
        let collapsed = String(scalars).split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        return String(collapsed.prefix(Self.maxLineLength))
    }
}
