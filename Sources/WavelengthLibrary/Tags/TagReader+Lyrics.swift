import CFFmpeg
import Dispatch

extension TagReader {
    /// One queue for reads the server makes while answering a request: they
    /// block on the file, so they run here, off Swift's cooperative pool
    /// (one thread per core), one at a time.
    private static let requestReads = DispatchQueue(label: "wavelength.tag-reads", qos: .userInitiated)

    /// Runs a blocking read on `requestReads` and waits for it without
    /// holding a pool thread.
    public static func offPool<T: Sendable>(_ read: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            requestReads.async { continuation.resume(with: Result { try read() }) }
        }
    }

    /// The lyrics a file's tags carry (ID3's USLT, which FFmpeg names
    /// `lyrics` or `lyrics-LANG`; Vorbis comments' `LYRICS` and
    /// `UNSYNCEDLYRICS`), or nil.
    public static func lyrics(path: String) throws -> String? {
        let container = try MediaContainer(path: path)
        return container.firstTag { key in
            let key = key.lowercased()
            return key == "lyrics" || key.hasPrefix("lyrics-") || key == "unsyncedlyrics" || key == "uslt"
        }
    }
}

extension MediaContainer {
    /// The first non-empty value whose key `matches`, in the file-level tags
    /// and then the audio stream's.
    func firstTag(_ matches: (String) -> Bool) -> String? {
        for dictionary in [context.pointee.metadata, audioStream?.pointee.metadata] {
            guard let dictionary else { continue }
            var entry: UnsafeMutablePointer<AVDictionaryEntry>? = nil
            while let next = av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
                entry = next
                guard let key = next.pointee.key, let raw = next.pointee.value, matches(String(cString: key)) else { continue }
                let value = String(cString: raw).trimmingWhitespace
                if !value.isEmpty { return value }
            }
        }
        return nil
    }
}
