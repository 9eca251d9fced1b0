#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The folders music is served from, by their real paths.
///
/// A library is not trusted: anyone who can write into it can plant a symlink
/// (`x.lrc -> /etc/passwd`, `cover.jpg -> ~/.ssh/id_ed25519`, an "album" linked
/// to someone else's music). A file is read only when its real path, with every
/// symlink resolved, lies inside one of the roots' real paths; links that stay
/// inside the library keep working.
public struct LibraryRoots: Sendable, Equatable {
    /// Each root's real path; roots that do not exist are left out.
    public let realRoots: [String]

    public init(_ roots: [String]) {
        realRoots = roots.compactMap(Self.realPath)
    }

    /// The real path of `path` when it lies inside a root, else nil (also when
    /// it does not exist). Read the returned path, not `path`, so a link
    /// swapped in after this check is not followed by the read.
    public func confine(_ path: String) -> String? {
        guard let real = Self.realPath(path) else { return nil }
        let inside = realRoots.contains { root in
            real == root || real.hasPrefix(root == "/" ? root : root + "/")
        }
        return inside ? real : nil
    }

    static func realPath(_ path: String) -> String? {
        guard !path.isEmpty, let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
