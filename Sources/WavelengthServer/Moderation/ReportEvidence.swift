import Foundation

/// A reported voice clip's audio, kept beside the database so the
/// administrators hear what was reported after the clip is deleted. A hard
/// link where the file system allows (no second copy), else a copy; the
/// folder is 0700 and the files 0600, like the clips'.
struct ReportEvidence: Sendable {
    let folder: String

    /// Keeps the file at `source` as the evidence of report `id`; nil when
    /// there was nothing to keep (the clip's file is gone).
    func keep(_ source: String, as id: String) -> String? {
        let manager = FileManager.default
        guard manager.fileExists(atPath: source) else { return nil }
        let name = id + ".mp3"
        let target = folder + "/" + name
        do {
            try manager.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try? manager.removeItem(atPath: target)
            do {
                try manager.linkItem(atPath: source, toPath: target)
            } catch {
                try manager.copyItem(atPath: source, toPath: target)
            }
            try manager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target)
            return name
        } catch {
            return nil
        }
    }

    /// Where evidence `name` is; nil for a name the server didn't make.
    func path(of name: String) -> String? {
        guard name.hasSuffix(".mp3"), name.count <= 40,
            name.dropLast(4).allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
        else { return nil }
        return folder + "/" + name
    }

    func remove(_ name: String) {
        guard let path = path(of: name) else { return }
        try? FileManager.default.removeItem(atPath: path)
    }
}
