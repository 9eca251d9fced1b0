import Foundation

/// The words find-as-you-type compares, as SQLite's `unicode61
/// remove_diacritics 2` tokenizer makes them: lowercased, without accents,
/// split at anything that isn't a letter or a digit. "Zürich Nights" and
/// "zur nig" meet as `zurich nights` and `zur nig`. Stores that don't have
/// that tokenizer fold with this, so a search finds the same songs in each.
public enum SearchWords {
    public static func of(_ text: String) -> [String] {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .split(whereSeparator: { !$0.isLetter && !$0.isNumber })
            .map(String.init)
    }

    /// How much a match in each field counts (the order SQLite's bm25 weights
    /// give): a title hit ranks above an artist hit, above an album hit.
    public static let titleWeight = 10
    public static let artistWeight = 6
    public static let albumWeight = 3
    public static let albumArtistWeight = 2
}
