/// Which folders to rescan after a watch saw changes: each changed folder
/// still there, or else its nearest ancestor that is (a folder deleted
/// whole is seen from its parent, whose rescan finds its files gone: a
/// missing folder given to the scanner would count as unreachable and
/// keep them). Folders inside another one on the list are left to it,
/// and nothing outside the roots is scanned.
public enum RescanFolders {
    public static func choose(changed: Set<String>, roots: [String], exists: (String) -> Bool) -> [String] {
        var chosen: Set<String> = []
        for folder in changed {
            guard let root = roots.first(where: { folder == $0 || folder.hasPrefix($0 + "/") }) else { continue }
            var candidate = folder
            while candidate != root, !exists(candidate) {
                candidate = String(candidate[..<(candidate.lastIndex(of: "/") ?? candidate.endIndex)])
            }
            chosen.insert(candidate)
        }
        return chosen.sorted().filter { folder in
            !chosen.contains { other in other != folder && folder.hasPrefix(other + "/") }
        }
    }
}
