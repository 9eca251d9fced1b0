import Foundation
import WavelengthCore
import WavelengthLibrary
import WavelengthStore

/// "What's this song?" from audio: fingerprints a clip with Chromaprint and
/// looks it up in an index of the library's fingerprints, built from
/// storage on first use and again after the analysis fingerprints more.
///
/// Fingerprinting decodes audio, so clips take turns in one slot, fairly
/// between clients, and a crowd waiting is refused at once (429).
actor SongRecognizer {
    private let store: any AnalysisRepository
    private var index: FingerprintIndex?
    private let slots = FairSlots(
        slots: 1, maxWaitingPerClient: 1, maxWaiting: 8,
        busy: "The server is busy recognising songs; try again in a few seconds.", retryAfterSeconds: 5)
    private let scratch: String

    /// The longest clip listened to.
    static let clipSeconds = 30

    init(store: any AnalysisRepository, scratchDirectory: String) {
        self.store = store
        self.scratch = scratchDirectory
    }

    /// The analysis fingerprinted more tracks: the next question rebuilds.
    func invalidate() {
        index = nil
    }

    /// The track `audio` (a file's bytes, any format FFmpeg reads) comes
    /// from, or nil when it matches nothing in the library.
    func recognize(_ audio: Data, client: String) async throws -> FingerprintIndex.Match? {
        let print = try await slots.run(for: client) { [scratch] in
            try FileManager.default.createDirectory(
                atPath: scratch, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let path = scratch + "/clip-\(UUID().uuidString)"
            // Only the server's user may read what a listener recorded.
            guard FileManager.default.createFile(atPath: path, contents: audio, attributes: [.posixPermissions: 0o600]) else {
                throw APIError(.internalServerError, code: .internal, "Could not keep the clip to listen to it.")
            }
            defer { try? FileManager.default.removeItem(atPath: path) }
            do {
                return try await FingerprintMeter.measure(path: path, seconds: Self.clipSeconds)
            } catch let failure as FingerprintMeter.Failure {
                throw APIError.badRequest(
                    failure == .tooShort ? "The clip is too short: send at least 5 seconds of audio." : "That is not audio the server can read.",
                    code: .badAudio)
            }
        }
        return try await currentIndex().match(print)
    }

    /// The library's track a whole recording's fingerprint matches, if any:
    /// an upload already on the server.
    func match(_ print: AudioFingerprint) async throws -> FingerprintIndex.Match? {
        try await currentIndex().match(print)
    }

    private func currentIndex() async throws -> FingerprintIndex {
        if let index { return index }
        let built = FingerprintIndex(try await store.fingerprints())
        index = built
        return built
    }
}
