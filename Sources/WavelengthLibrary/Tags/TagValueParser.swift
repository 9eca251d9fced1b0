/// Turns free-form tag text into numbers. Taggers disagree on formats, so these are lenient.
enum TagValueParser {
    /// "3", "03", "3/12", " 3 of 12" → 3. Zero or no leading number → nil.
    static func position(_ text: String?) -> Int? {
        guard let text else { return nil }
        let digits = text.trimmingWhitespace.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 6, let value = Int(digits), value > 0 else { return nil }
        return value
    }

    /// "2019", "2019-05-01", "2019/05", "20190501" → 2019. Needs four leading digits.
    static func year(_ text: String?) -> Int? {
        guard let text else { return nil }
        let digits = text.trimmingWhitespace.prefix { $0.isASCII && $0.isNumber }
        guard digits.count >= 4, let value = Int(digits.prefix(4)), value > 0 else { return nil }
        return value
    }

    /// ISRCs are often written with hyphens ("US-ABC-12-34567"); the canonical form has none.
    static func isrc(_ text: String?) -> String? {
        guard let text else { return nil }
        let compact = text.uppercased().filter { $0 != "-" && !$0.isWhitespace }
        let isCanonical = compact.count == 12 && compact.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        return isCanonical ? compact : text
    }

    /// MusicBrainz identifiers are UUIDs; store them in their usual lowercase form.
    static func musicBrainzID(_ text: String?) -> String? {
        text?.lowercased()
    }
}
