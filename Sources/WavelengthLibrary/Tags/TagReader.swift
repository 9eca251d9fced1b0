#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CFFmpeg
import WavelengthCore

/// Reads tags, duration, codec and cover art with FFmpeg's libavformat.
public enum TagReader {
    /// Reads tags and duration, filling missing ones from the file and folder names.
    /// Throws `LibraryError.unreadable(reason)` for missing, empty, corrupt or truncated files.
    public static func read(path: String) throws -> TrackMetadata {
        try read(path: path, libraryRoot: nil)
    }

    /// Like `read(path:)`, but folders at or above `libraryRoot` are never taken for the
    /// artist when tags are missing.
    ///
    /// - Parameter fallbackName: read for the title instead of the path when
    ///   the tags have none (an upload, stored under an id, keeps its name
    ///   from the uploader's device); its folders are then unknown.
    public static func read(path: String, libraryRoot: String?, fallbackName: String? = nil) throws -> TrackMetadata {
        try requireNonEmptyFile(path)
        let container = try MediaContainer(path: path)
        guard let audio = container.audioStream else { throw LibraryError.unreadable("it contains no audio stream") }
        let format = try ContainerFormat.audioFormat(container: container.containerName, codec: audio.pointee.codecpar.pointee.codec_id)
        guard let durationMs = container.durationMs(of: audio) else {
            throw LibraryError.unreadable("FFmpeg finds no audio in it (its length is unknown or zero)")
        }
        if let problem = container.truncationProblem(stream: audio, durationMs: durationMs) {
            throw LibraryError.unreadable(problem)
        }

        let fallback = fallbackName.map { PathFallbacks(path: "/" + $0, libraryRoot: "/") }
            ?? PathFallbacks(path: path, libraryRoot: libraryRoot)
        let artist = container.tag(TagKeys.artist) ?? fallback.artist
        return TrackMetadata(
            title: container.tag(TagKeys.title) ?? fallback.title,
            artist: artist,
            album: container.tag(TagKeys.album) ?? fallback.album,
            albumArtist: container.tag(TagKeys.albumArtist) ?? artist,
            trackNumber: TagValueParser.position(container.tag(TagKeys.track)) ?? fallback.trackNumber,
            discNumber: TagValueParser.position(container.tag(TagKeys.disc)) ?? fallback.discNumber,
            year: TagValueParser.year(container.tag(TagKeys.year)),
            genre: container.tag(TagKeys.genre),
            durationMs: durationMs,
            isrc: TagValueParser.isrc(container.tag(TagKeys.isrc)),
            musicBrainzRecordingID: TagValueParser.musicBrainzID(container.tag(TagKeys.musicBrainzRecordingID)),
            format: format,
            codec: String(cString: avcodec_get_name(audio.pointee.codecpar.pointee.codec_id)),
            hasEmbeddedArt: !container.pictureStreams.isEmpty
        )
    }

    /// The embedded cover art bytes and their MIME type (image/jpeg, image/png, …), or nil.
    public static func embeddedArtwork(path: String) throws -> (data: [UInt8], mimeType: String)? {
        try requireNonEmptyFile(path)
        let container = try MediaContainer(path: path)
        guard container.audioStream != nil else { throw LibraryError.unreadable("it contains no audio stream") }
        guard let picture = container.coverPicture() else { return nil }
        return (picture.data, picture.mimeType)
    }

    /// FFmpeg's messages for these cases ("Invalid data found…") would hide the real reason.
    private static func requireNonEmptyFile(_ path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw LibraryError.unreadable("cannot access it (\(String(cString: strerror(errno))))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else { throw LibraryError.unreadable("it is not a regular file") }
        guard info.st_size > 0 else { throw LibraryError.unreadable("the file is empty") }
    }
}
