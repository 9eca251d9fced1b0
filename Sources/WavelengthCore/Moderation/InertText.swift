/// Text as it may be shown or exported where a moderator reads it (the
/// audit log): what someone typed is kept as it was, but shown inert. A
/// control character (a line break, an escape that recolours a terminal),
/// a bidi override that turns the rest of the line around, or an invisible
/// format character is written as `⟨U+202E⟩`, so it can be seen and does
/// nothing. The joiners that emoji and some scripts need are left alone.
public enum InertText {
    public static func shown(_ text: String) -> String {
        var shown = ""
        shown.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if isActive(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                shown += "⟨U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "⟩"
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    /// Whether the scalar does something to the text around it, or to a terminal.
    static func isActive(_ scalar: Unicode.Scalar) -> Bool {
        // ZERO WIDTH NON-JOINER and JOINER: part of how emoji and scripts are written.
        if scalar.value == 0x200C || scalar.value == 0x200D { return false }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }
}
