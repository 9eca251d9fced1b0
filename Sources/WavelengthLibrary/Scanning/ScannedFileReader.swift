import WavelengthCore
/// Reads one walked file completely: fingerprint, tags, and the sidecars next to it.
enum ScannedFileReader {
    static func read(_ file: WalkedFile, in folder: WalkedFolder) throws -> ScannedFile {
        let fingerprint = try ContentFingerprint.of(path: file.path, size: file.stamp.size)
        let metadata = try TagReader.read(path: file.path, libraryRoot: folder.root)
        return ScannedFile(
            path: file.path,
            stamp: file.stamp,
            fingerprint: fingerprint,
            metadata: metadata,
            artworkPath: metadata.hasEmbeddedArt ? nil : folder.sidecars.artworkPath,
            lyricsPath: folder.sidecars.lyricsPath(forAudioFileNamed: file.name)
        )
    }
}
