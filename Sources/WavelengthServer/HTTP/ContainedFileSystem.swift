import Foundation
import Hummingbird
import Logging
import NIOPosix

/// The web app's files, as Hummingbird's `LocalFileSystem` serves them, but
/// never through a symlink that leads out of the folder: a link in `--web`
/// to `/etc` or to the data folder answers 404, as a missing file does.
struct ContainedFileSystem: FileProvider {
    typealias FileAttributes = LocalFileSystem.FileAttributes
    typealias FileIdentifier = LocalFileSystem.FileIdentifier

    private let local: LocalFileSystem
    /// The folder with every link in its path resolved.
    private let root: String

    init(rootFolder: String, logger: Logger) {
        local = LocalFileSystem(rootFolder: rootFolder, threadPool: .singleton, logger: logger)
        let resolved = URL(fileURLWithPath: rootFolder).resolvingSymlinksInPath().path
        root = resolved.hasSuffix("/") ? resolved : resolved + "/"
    }

    func getFileIdentifier(_ path: String) -> FileIdentifier? {
        guard let id = local.getFileIdentifier(path) else { return nil }
        // realpath(3) resolves every link; a path that doesn't exist stays
        // as asked (and is then not found).
        guard let real = realpath(id, nil) else { return id }
        defer { free(real) }
        let resolved = String(cString: real)
        return resolved == String(root.dropLast()) || resolved.hasPrefix(root) ? id : nil
    }

    func getAttributes(id: FileIdentifier) async throws -> FileAttributes? {
        try await local.getAttributes(id: id)
    }

    func loadFile(id: FileIdentifier, context: some RequestContext) async throws -> ResponseBody {
        try await local.loadFile(id: id, context: context)
    }

    func loadFile(id: FileIdentifier, range: ClosedRange<Int>, context: some RequestContext) async throws -> ResponseBody {
        try await local.loadFile(id: id, range: range, context: context)
    }
}
