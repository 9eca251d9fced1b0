/// What a chat message may hold, and the handles it mentions.
public enum ChatText {
    /// üWave allows 300 characters, plug.dj 256.
    public static let maxCharacters = 300
    /// A bound on the bytes as well: 300 characters of stacked combining
    /// marks would otherwise be kilobytes each.
    public static let maxBytes = 1_500

    /// The text as it is kept: trimmed, one line, printable.
    public static func checked(_ raw: String) throws(ChatError) -> String {
        guard raw.utf8.count <= maxBytes * 2 else { throw .tooLong(limit: maxCharacters) }
        let text = raw.trimmingWhitespace
        guard !text.isEmpty else { throw .empty }
        guard text.count <= maxCharacters, text.utf8.count <= maxBytes else { throw .tooLong(limit: maxCharacters) }
        guard !text.unicodeScalars.contains(where: isRefused) else { throw .controlCharacters }
        return text
    }

    /// Control characters (C0, C1, line and paragraph separators) and the
    /// bidirectional overrides that make text read differently from how it
    /// is stored ("Trojan Source").
    static func isRefused(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: return true
        default: break
        }
        return (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    /// `@handle` mentions: an @ at the start or after a non-handle
    /// character, then 3–24 of a–z, 0–9 and _ (case folded). Each handle
    /// once, in the order first named; at most 10.
    public static func mentions(in text: String) -> [String] {
        var found: [String] = []
        var previous: Character?
        var index = text.startIndex
        while index < text.endIndex, found.count < 10 {
            let character = text[index]
            defer { previous = character }
            guard character == "@", previous.map({ !isHandleCharacter($0) }) ?? true else {
                index = text.index(after: index)
                continue
            }
            var end = text.index(after: index)
            while end < text.endIndex, isHandleCharacter(text[end]) { end = text.index(after: end) }
            let handle = text[text.index(after: index)..<end].lowercased()
            if (3...24).contains(handle.count), !found.contains(handle) { found.append(handle) }
            index = end
        }
        return found
    }

    /// The handle a guest is mentioned by in a room: their name folded to
    /// a–z, 0–9 and _ (12 at most, "guest" when nothing is left), then _ and
    /// the last four letters or digits of their person id, so two guests
    /// called Ann are told apart. It reads like a handle, so `mentions`
    /// finds it; an account's handle never has the suffix's shape alone.
    public static func guestHandle(name: String, personID: String) -> String {
        var slug = ""
        for character in name.lowercased() {
            if slug.count == 12 { break }
            if character.isASCII, character.isLetter || character.isNumber { slug.append(character) }
            else if character == " " || character == "_" || character == "-", !slug.isEmpty, slug.last != "_" { slug.append("_") }
        }
        while slug.last == "_" { slug.removeLast() }
        if slug.isEmpty { slug = "guest" }
        let tail = String(personID.lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber) }.suffix(4))
        return slug + "_" + (tail.isEmpty ? "0000" : tail)
    }

    private static func isHandleCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "_")
    }
}

extension String {
    /// Without leading and trailing whitespace (Foundation-free).
    var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
