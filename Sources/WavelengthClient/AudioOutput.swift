import Foundation
import Subprocess

/// Where a client's audio goes. An iOS or macOS app plugs in its own engine
/// (AVAudioEngine, say); the CLI on Linux uses `FFmpegAudioOutput`.
public protocol AudioOutput: Sendable {
    var name: String { get }
    /// Starts `url` so that its position `fileOffsetMs` sounds at client
    /// clock time `at` (which may be a moment ago: catch up from there),
    /// with `gainDb` applied (the track's loudness gain and the station's
    /// level: `SoundView.gainDb(for:)`). For a live show
    /// (`EntrySource.live`) `url` is a continuous MP3 stream, started once
    /// at offset 0 and never re-seeked.
    func play(url: String, fileOffsetMs: Double, at: Double, gainDb: Double) async throws
    func stop() async
    /// The file position being heard now, in ms, when known.
    func position() async -> Double?
}

/// Keeps time as if it played, without a sound device: for machines with no
/// audio output, and for measuring sync without the device's own latency.
public actor SilentAudioOutput: AudioOutput {
    public nonisolated let name = "silent"
    private let clock: any ClientClock
    private var started: (at: Double, offset: Double)?
    /// The gain it was last asked to play at.
    public private(set) var gainDb: Double?

    public init(clock: any ClientClock = MonotonicClock()) {
        self.clock = clock
    }

    public func play(url: String, fileOffsetMs: Double, at: Double, gainDb: Double) async throws {
        started = (at, fileOffsetMs)
        self.gainDb = gainDb
    }

    public func stop() async {
        started = nil
    }

    public func position() async -> Double? {
        started.map { $0.offset + clock.now() - $0.at }
    }
}

/// Decodes with the ffmpeg command line and plays through PulseAudio or
/// ALSA. Its start-up latency is not compensated, so it is good for
/// listening, not for millisecond measurements.
///
/// Each track is one ffmpeg child run by swift-subprocess inside a task:
/// cancelling the task kills ffmpeg (SIGTERM, then SIGKILL), and waiting for it
/// holds no thread.
public actor FFmpegAudioOutput: AudioOutput {
    public nonisolated let name: String
    private let deviceArguments: [String]
    private let clock: any ClientClock
    private var player: Task<Void, Never>?
    private var started: (at: Double, offset: Double)?

    /// An output for this machine's sound device, or nil when it has none.
    public static func forThisMachine(clock: any ClientClock = MonotonicClock()) -> FFmpegAudioOutput? {
        let environment = ProcessInfo.processInfo.environment
        if environment["PULSE_SERVER"] != nil || FileManager.default.fileExists(atPath: "/run/user/\(getuid())/pulse/native") {
            return FFmpegAudioOutput(name: "pulse", deviceArguments: ["-f", "pulse", "wavelength"], clock: clock)
        }
        if let cards = try? FileManager.default.contentsOfDirectory(atPath: "/dev/snd"), cards.contains(where: { $0.hasPrefix("pcm") }) {
            return FFmpegAudioOutput(name: "alsa", deviceArguments: ["-f", "alsa", "default"], clock: clock)
        }
        return nil
    }

    init(name: String, deviceArguments: [String], clock: any ClientClock) {
        self.name = name
        self.deviceArguments = deviceArguments
        self.clock = clock
    }

    public func play(url: String, fileOffsetMs: Double, at: Double, gainDb: Double) async throws {
        await stop()
        let fileOffsetMs = fileOffsetMs + (clock.now() - at)
        let arguments =
            ["-nostdin", "-v", "error", "-ss", String(format: "%.3f", max(0, fileOffsetMs) / 1000), "-i", url, "-vn"]
            + ["-af", String(format: "volume=%.2fdB", gainDb)] + deviceArguments
        // Told once ffmpeg has started, or why it could not be.
        let (spawned, spawning) = AsyncThrowingStream<Void, any Error>.makeStream()
        player = Task {
            var options = PlatformOptions()
            options.teardownSequence = [.gracefulShutDown(allowedDurationToNextStep: .milliseconds(500))]
            do {
                _ = try await Subprocess.run(
                    .name("ffmpeg"), arguments: Arguments(arguments), platformOptions: options,
                    input: .none, output: .discarded, error: .discarded
                ) { _ in _ = spawning.yield() }
                spawning.finish()
            } catch {
                spawning.finish(throwing: error)
            }
        }
        for try await _ in spawned { break }
        started = (clock.now(), fileOffsetMs)
    }

    /// Stops the track playing, and returns once its ffmpeg has exited.
    public func stop() async {
        if let player {
            player.cancel()
            await player.value
        }
        player = nil
        started = nil
    }

    public func position() async -> Double? {
        started.map { $0.offset + clock.now() - $0.at }
    }
}
