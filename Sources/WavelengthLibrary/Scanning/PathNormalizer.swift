import Foundation

/// Makes scan roots comparable with the paths stored in the index.
package enum PathNormalizer {
    /// Absolute, with `~` expanded and `.`/`..`/doubled/trailing slashes removed.
    /// Symlinks are deliberately not resolved: paths stay the way the user named them.
    package static func standardize(_ path: String) -> String {
        var absolute = path
        if absolute == "~" || absolute.hasPrefix("~/") {
            absolute = NSHomeDirectory() + absolute.dropFirst()
        }
        if !absolute.hasPrefix("/") {
            absolute = FileManager.default.currentDirectoryPath + "/" + absolute
        }
        var parts: [Substring] = []
        for part in absolute.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// Whether `path` is `root` itself or lies beneath it.
    static func isPath(_ path: String, inside root: String) -> Bool {
        if root == "/" { return path.hasPrefix("/") }
        return path == root || (path.hasPrefix(root) && path.dropFirst(root.count).first == "/")
    }

    package static func join(_ directory: String, _ name: String) -> String {
        directory == "/" ? "/" + name : directory + "/" + name
    }
}
