/// What a file's name and folders say about it, for files whose tags are missing.
///
/// Libraries are usually laid out `Artist/Album/01 - Title.ext`, optionally with a
/// `CD1`/`Disc 2` folder under the album, so the folders stand in for missing tags.
struct PathFallbacks: Equatable {
    var title: String
    var trackNumber: Int?
    var discNumber: Int?
    var album: String
    var artist: String

    static let unknownArtist = "Unknown Artist"
    static let unknownAlbum = "Unknown Album"

    /// - Parameter libraryRoot: the scanned folder containing the file, when known. Folders at
    ///   or above it are not taken for an artist (a file in `Music/Album/` has no artist folder).
    init(path: String, libraryRoot: String? = nil) {
        let components = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let fileName = components.last ?? path
        let numbered = Self.splitLeadingNumber(Self.baseName(of: fileName))
        title = numbered.title
        trackNumber = numbered.number

        var folders = Array(components.dropLast())
        // Folders the file sits in, nearest last, that are inside the library root.
        var ownFolderCount = folders.count
        if let libraryRoot {
            let rootDepth = libraryRoot.split(separator: "/", omittingEmptySubsequences: true).count
            let insideRoot = path.hasPrefix(libraryRoot.hasSuffix("/") ? libraryRoot : libraryRoot + "/")
            if insideRoot { ownFolderCount = max(0, folders.count - rootDepth) }
        }

        if let parent = folders.last, ownFolderCount >= 2, let disc = Self.discFolderNumber(parent) {
            discNumber = disc
            folders.removeLast()
            ownFolderCount -= 1
        }
        album = folders.last ?? Self.unknownAlbum
        artist = ownFolderCount >= 2 && folders.count >= 2 ? folders[folders.count - 2] : Self.unknownArtist
    }

    /// "01 - Intro.mp3" → "01 - Intro"; dotfiles keep their name.
    static func baseName(of fileName: String) -> String {
        guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return fileName }
        return String(fileName[..<dot])
    }

    /// "01 - Title", "01. Title", "1 Title", "07_Title" → (Title, 1…); "1984" stays whole.
    static func splitLeadingNumber(_ name: String) -> (title: String, number: Int?) {
        let digits = name.prefix { $0.isASCII && $0.isNumber }
        guard (1...3).contains(digits.count), let number = Int(digits) else { return (name, nil) }
        var rest = name[digits.endIndex...]
        let separators: Set<Character> = ["-", ".", "_", "–", "—", ")"]
        let spaces = rest.prefix { $0 == " " }
        rest = rest.dropFirst(spaces.count)
        var consumedSeparator = !spaces.isEmpty
        if let first = rest.first, separators.contains(first) {
            rest = rest.dropFirst()
            consumedSeparator = true
        }
        rest = rest.drop { $0 == " " }
        guard consumedSeparator, !rest.isEmpty else { return (name, nil) }
        return (String(rest), number)
    }

    /// "CD1", "cd 2", "Disc 3", "disk04" → the disc number.
    static func discFolderNumber(_ folder: String) -> Int? {
        let lower = folder.lowercased()
        for prefix in ["cd", "disc", "disk"] where lower.hasPrefix(prefix) {
            let rest = lower.dropFirst(prefix.count).drop { $0 == " " || $0 == "_" || $0 == "-" }
            if !rest.isEmpty, rest.count <= 3, rest.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(rest) {
                return value
            }
        }
        return nil
    }
}
