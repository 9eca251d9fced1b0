import Foundation
import Logging
import NIOCore
import Subprocess

/// Turns a browser's broadcast (MediaRecorder's WebM with Opus) into the MP3
/// every live source relays, with one ffmpeg per broadcast: what the
/// browser sends goes to its standard input as it arrives, and each MP3
/// packet it writes goes to the source's sink at once.
enum BrowserTranscoder {
    static let bitrateKbps = 128

    /// Runs until `audio` ends (the browser stopped) or ffmpeg fails; the
    /// sink is finished either way, which takes the source off the air.
    static func run(
        _ audio: AsyncStream<ByteBuffer>, into sink: AsyncStream<ByteBuffer>.Continuation, stationID: String,
        logger: Logger
    ) async {
        defer { sink.finish() }
        let arguments = [
            "-nostdin", "-hide_banner", "-loglevel", "error",
            // Little probing: the first packets are on the air at once.
            "-probesize", "32768", "-analyzeduration", "0", "-fflags", "nobuffer",
            "-f", "webm", "-i", "pipe:0", "-vn", "-c:a", "libmp3lame", "-b:a", "\(bitrateKbps)k", "-ar", "44100",
            "-ac", "2", "-f", "mp3", "-flush_packets", "1", "pipe:1",
        ]
        do {
            let result = try await Subprocess.run(
                .name("ffmpeg"), arguments: Arguments(arguments), input: .inputWriter, output: .sequence,
                error: .discarded
            ) { execution in
                await withThrowingTaskGroup(of: Bool.self) { group in
                    group.addTask {
                        for try await chunk in execution.standardOutput {
                            sink.yield(chunk.withUnsafeBytes { ByteBuffer(bytes: $0) })
                        }
                        return true
                    }
                    group.addTask {
                        let writer = execution.standardInputWriter
                        for await chunk in audio {
                            _ = try await writer.write(Array(chunk.readableBytesView))
                        }
                        try await writer.finish()
                        return false
                    }
                    // The browser stopping lets ffmpeg finish what it has;
                    // ffmpeg stopping (unreadable audio) stops the feeding.
                    // The children that stop it (or fail) cancel the rest, whose
                    // cancellation errors end them quietly.
                    while true {
                        do {
                            guard let stop = try await group.next() else { break }
                            if stop { group.cancelAll() }
                        } catch {
                            group.cancelAll()
                        }
                    }
                }
            }
            if !result.terminationStatus.isSuccess {
                logger.info("The browser broadcast on station \(stationID) could not be decoded (ffmpeg \(result.terminationStatus)); it ended")
            }
        } catch {
            logger.info("The browser broadcast on station \(stationID) ended: \(error)")
        }
    }
}
