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

    /// Tracks fingerprinted since the index was built (uploads), matched
    /// from a small index of their own: rebuilding the library's whole index
    /// for each upload would cost every upload a pass over every print.
    private var recent: [(TrackID, AudioFingerprint)] = []
    private var recentIndex: FingerprintIndex?
    /// Past this many, the next question rebuilds the whole index instead.
    static let recentLimit = 200

    /// The analysis fingerprinted more tracks, or some left: the next question rebuilds.
    func invalidate() {
        index = nil
        recent = []
        recentIndex = nil
    }

    /// One new track's fingerprint, findable at once.
    func remember(_ trackID: TrackID, _ print: AudioFingerprint) {
        guard recent.count < Self.recentLimit else { return invalidate() }
        recent.append((trackID, print))
        recentIndex = nil
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
        return try await match(print)
    }

    /// The track a fingerprint matches best, in the library's index or
    /// among the tracks remembered since.
    func match(_ print: AudioFingerprint) async throws -> FingerprintIndex.Match? {
        let found = try await currentIndex().match(print)
        guard !recent.isEmpty else { return found }
        let small = recentIndex ?? FingerprintIndex(recent)
        recentIndex = small
        return [found, small.match(print)].compactMap { $0 }.max { $0.similarity < $1.similarity }
    }

    private func currentIndex() async throws -> FingerprintIndex {
        if let index { return index }
        let remembered = recent.count
        let built = FingerprintIndex(try await store.fingerprints())
        index = built
        // The store held those remembered before the read; any remembered
        // while it ran stay remembered.
        recent.removeFirst(min(remembered, recent.count))
        recentIndex = nil
        return built
    }
}
