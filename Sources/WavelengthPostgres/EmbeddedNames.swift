import Foundation

/// How the embedded store's tables and columns (SQLite, camelCase) are
/// named here (snake_case), for `wavelength migrate-db`. Most follow one
/// rule; the exceptions are listed.
enum EmbeddedNames {
    /// Tables that aren't copied: the legacy key table (see
    /// `PostgresImport`) and tables with no counterpart by design.
    static let skipped: Set<String> = ["serverSecret"]

    static let renamedTables = ["streamToken": "link_token"]
    static let renamedColumns = [
        "start": "start_at", "offset": "start_offset", "musicBrainzRecordingID": "musicbrainz_recording_id",
        "beforeCoDJ": "before_codj",
    ]

    static func table(_ name: String) -> String { renamedTables[name] ?? snake(name) }
    static func column(_ name: String) -> String { renamedColumns[name] ?? snake(name) }

    /// `ownerKeyHash` → `owner_key_hash`, `stationID` → `station_id`, `mtimeNs` → `mtime_ns`.
    static func snake(_ name: String) -> String {
        var out = ""
        let characters = Array(name)
        for (index, character) in characters.enumerated() {
            if character.isUppercase {
                let previousIsUpper = index > 0 && characters[index - 1].isUppercase
                let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
                // A new word starts at a capital after a small letter, or at
                // the last capital of a run followed by a small letter.
                if index > 0 && (!previousIsUpper || nextIsLower) { out.append("_") }
                out.append(Character(character.lowercased()))
            } else {
                out.append(character)
            }
        }
        return out
    }
}
