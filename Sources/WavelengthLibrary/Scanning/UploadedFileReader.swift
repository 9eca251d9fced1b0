import Foundation
import WavelengthCore

/// Reads an uploaded file as the scan reads the library's: its content
/// fingerprint, tags, length, art and lyrics tags. Its name on the
/// uploader's device stands in for a missing title. Blocks: call it off
/// the cooperative pool (`TagReader.offPool`).
public enum UploadedFileReader {
    public static func read(path: String, name: String) throws -> ScannedFile {
        var status = stat()
        guard stat(path, &status) == 0 else { throw LibraryError.unreadable("it is gone") }
        let stamp = FileStamp(
            size: Int64(status.st_size),
            mtimeNs: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec))
        let fingerprint = try ContentFingerprint.of(path: path, size: stamp.size)
        let metadata = try TagReader.read(path: path, libraryRoot: nil, fallbackName: name)
        return ScannedFile(
            path: path, stamp: stamp, fingerprint: fingerprint, metadata: metadata, artworkPath: nil, lyricsPath: nil)
    }
}
