/// The name an upload's file had on the uploader's device: shown to them,
/// and read for a title when the file has no tags. Never a path: the file
/// is stored under its track's id.
public enum UploadName {
    public static let maxBytes = 255

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case empty
        case tooLong
        /// A folder in it (`/`, `\`), or `.`/`..`, or a control character.
        case path

        public var description: String {
            switch self {
            case .empty: "Give the file's name (?name=)."
            case .tooLong: "A file name is at most \(UploadName.maxBytes) bytes."
            case .path: "A file name can't hold a folder (/ or \\), be . or .., or hold control characters."
            }
        }
    }

    /// The name as given, when it is a plain file name.
    public static func validated(_ name: String) -> Result<String, Problem> {
        guard !name.isEmpty else { return .failure(.empty) }
        guard name.utf8.count <= maxBytes else { return .failure(.tooLong) }
        if name == "." || name == ".." || name.contains("/") || name.contains("\\")
            || name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f })
        {
            return .failure(.path)
        }
        return .success(name)
    }

    /// A short extension for the stored file ("mp3", "flac"), letters and
    /// digits only; "audio" when the name has none.
    public static func storedExtension(of name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "audio" }
        let ext = name[name.index(after: dot)...].lowercased()
        guard (1...5).contains(ext.count), ext.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            return "audio"
        }
        return ext
    }
}
