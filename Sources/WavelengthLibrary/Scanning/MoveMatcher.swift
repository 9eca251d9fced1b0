import WavelengthCore
/// Pairs vanished index entries with newly found files of the same content.
///
/// A file renamed or moved within the roots shows up as one vanished path plus one new path
/// with equal fingerprints; pairing them keeps the track's ID, so its history, likes and
/// place in station timelines survive the reorganisation.
enum MoveMatcher {
    struct Outcome {
        var added: [ScannedFile] = []
        var moved: [(trackID: String, file: ScannedFile)] = []
        var removedTrackIDs: [String] = []
    }

    /// - Parameters:
    ///   - newFiles: files read at paths the index did not know.
    ///   - vanished: indexed files whose paths were not found.
    static func match(newFiles: [ScannedFile], vanished: [IndexedFile]) -> Outcome {
        // Oldest path first for each fingerprint, so duplicates pair deterministically.
        var candidates: [String: [IndexedFile]] = [:]
        for file in vanished.sorted(by: { $0.path > $1.path }) {
            candidates[file.fingerprint, default: []].append(file)
        }
        var outcome = Outcome()
        for file in newFiles.sorted(by: { $0.path < $1.path }) {
            if let match = candidates[file.fingerprint]?.popLast() {
                outcome.moved.append((match.trackID, file))
            } else {
                outcome.added.append(file)
            }
        }
        outcome.removedTrackIDs = candidates.values.flatMap { $0 }.map(\.trackID).sorted()
        return outcome
    }
}
