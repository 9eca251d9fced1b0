import Foundation
import Subprocess
import WavelengthLibrary

/// One generated music library shared by every server test in the process:
/// the demo library (mp3, ogg, opus, flac, m4a with art and lyrics) plus an
/// AIFF file, which browsers cannot play, to exercise transcoding.
actor TestLibrary {
    static let shared = TestLibrary()

    private var folder: Task<String, any Error>?

    func path() async throws -> String {
        if let folder { return try await folder.value }
        let task = Task {
            let root = NSTemporaryDirectory() + "wavelength-server-tests-\(getpid())"
            try? FileManager.default.removeItem(atPath: root)
            let demo = try await DemoLibrary.ensure(in: root + "/demo")
            let extra = root + "/demo-extra/Studio Tapes/Odd Formats"
            try FileManager.default.createDirectory(atPath: extra, withIntermediateDirectories: true)
            try await ffmpeg(
                [
                    "-nostdin", "-v", "error", "-f", "lavfi", "-i", "sine=frequency=330:duration=3",
                    "-metadata", "title=Reel To Reel", "-metadata", "artist=Studio Tapes", "-metadata",
                    "album=Odd Formats", "-write_id3v2", "1", extra + "/01 Reel To Reel.aiff",
                ])
            return demo
        }
        folder = task
        return try await task.value
    }

    /// Both folders of the fixture library.
    func roots() async throws -> [String] {
        let demo = try await path()
        let root = URL(fileURLWithPath: demo).deletingLastPathComponent().deletingLastPathComponent().path
        return [demo, root + "/demo-extra"]
    }
}

/// Runs the ffmpeg CLI through swift-subprocess (see `ChildProcess`), which
/// waits for it without holding a thread.
func ffmpeg(_ arguments: [String]) async throws {
    let finished = try await ChildProcess.run(.name("ffmpeg"), arguments)
    guard finished.status.isSuccess else {
        throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "ffmpeg \(finished.status): \(finished.errorTail)"])
    }
}
