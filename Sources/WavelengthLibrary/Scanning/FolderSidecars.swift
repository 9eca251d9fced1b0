/// Cover images and lyric files found in one folder, matched to audio files by name.
struct FolderSidecars: Sendable {
    /// The folder image to use for files without embedded art, by preference order.
    var artworkPath: String?
    /// Lowercased base name → full path of each `.lrc` file.
    private var lyricsByBaseName: [String: String] = [:]

    /// Image base names people use for album art, most specific first.
    static let artworkBaseNames = ["cover", "folder", "front", "album", "albumart"]
    static let artworkExtensions: Set<String> = ["jpg", "jpeg", "png"]

    /// Whether a file name could be a sidecar, so the walker only keeps those names.
    static func isCandidate(_ lowercasedName: String) -> Bool {
        lowercasedName.hasSuffix(".lrc") || lowercasedName.hasSuffix(".jpg")
            || lowercasedName.hasSuffix(".jpeg") || lowercasedName.hasSuffix(".png")
    }

    /// - Parameter names: file names in `directory` that passed `isCandidate`.
    init(directory: String, names: [String]) {
        var artworkRank: Int?
        for name in names.sorted() {
            let lower = name.lowercased()
            let base = PathFallbacks.baseName(of: lower)
            let ext = lower.dropFirst(base.count + 1)
            if ext == "lrc" {
                lyricsByBaseName[base] = lyricsByBaseName[base] ?? PathNormalizer.join(directory, name)
            } else if Self.artworkExtensions.contains(String(ext)),
                      let rank = Self.artworkBaseNames.firstIndex(of: base),
                      rank < (artworkRank ?? .max) {
                artworkRank = rank
                artworkPath = PathNormalizer.join(directory, name)
            }
        }
    }

    /// The `.lrc` whose name matches the audio file's, ignoring case and extension.
    func lyricsPath(forAudioFileNamed name: String) -> String? {
        guard !lyricsByBaseName.isEmpty else { return nil }
        return lyricsByBaseName[PathFallbacks.baseName(of: name.lowercased())]
    }
}
