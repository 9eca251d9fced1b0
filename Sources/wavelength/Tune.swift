import ArgumentParser
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import WavelengthClient
import WavelengthCore
import WavelengthWire

/// Listens to a station from the command line with the client SDK.
struct Tune: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Tune in to a station by frequency (\"107.3\") or id, or one found on this network; prints what plays and how well it is in sync.")

    @Argument(help: "A frequency such as 107.3, or a station id; without one, the stations on this network are offered.")
    var station: String?

    @OptionGroup var options: StationOptions

    @Flag(help: "List the stations announced on this network (mDNS) and exit.")
    var nearby = false

    @Option(help: "Seconds to look for stations on this network.")
    var browseSeconds: Double = 3

    @Option(help: "Stop after this many seconds (default: run until interrupted).")
    var duration: Double?

    @Flag(help: "Print one JSON object a second instead of a status line.")
    var json = false

    @Flag(help: "Never use the sound device, even when there is one.")
    var silent = false

    @Option(help: "Seconds between reports.")
    var every: Double = 1

    @Option(help: "Make this client's clock wrong by this many ms (to show the sync working).")
    var clockOffset: Double = 0

    @Option(help: "Make this client's clock run fast by this many parts per million.")
    var clockSkewPPM: Double = 0

    @Option(
        help: ArgumentHelp(
            "Keep each output's measured delay in this file, and take part when a phone calibrates the room.",
            discussion: "A phone with the station open starts \"Calibrate the room\"; this device plays its chirps and keeps the figure."))
    var outputDelays: String?

    @Option(help: "This device's name in a room calibration.")
    var deviceName = "wavelength tune"


    func run() async throws {
        var stationID: String
        // The server given, or the one a station found nearby is on.
        var server = options.server
        if nearby || station == nil {
            let found = try await NearbyList.find(seconds: browseSeconds)
            NearbyList.print(found, offering: !nearby)
            guard !nearby, found.count == 1, let only = found.first else { return }
            stationID = only.announcement.stationID
            server = only.serverURL
        } else {
            stationID = try await options.stationID(for: station ?? "")
        }
        let clock: any ClientClock =
            clockOffset == 0 && clockSkewPPM == 0
            ? MonotonicClock() : DistortedClock(offset: clockOffset, skew: clockSkewPPM * 1e-6)
        var logger = Logger(label: "wavelength.tune")
        logger.logLevel = .error
        let account = try await options.signIn()
        let client = StationClient(
            configuration: ClientConfiguration(
                serverURL: server, stationID: stationID, accessToken: { await account?.accessToken() },
                personID: await account?.person?.id),
            clock: clock, logger: logger)
        let output: any AudioOutput =
            (silent ? nil : FFmpegAudioOutput.forThisMachine(clock: clock)) ?? SilentAudioOutput(clock: clock)
        let player = StationPlayer(client: client, output: output, clock: clock)
        if !json { print("Tuning in to \(station ?? stationID) on \(server) (audio: \(output.name))") }
        let calibrating = try await takePart(client: client, player: player, output: output, clock: clock)
        await client.start()
        let tunedAt = clock.now()
        let playing = Task { await player.run() }
        let started = Date()
        while duration.map({ Date().timeIntervalSince(started) < $0 }) ?? true {
            try await Task.sleep(for: .milliseconds(Int(every * 1000)))
            try await report(client: client, player: player, clock: clock, tunedAt: tunedAt)
        }
        playing.cancel()
        await playing.value
        calibrating?.cancel()
        await client.stop()
    }

    /// With --output-delays: the route's correction applied, and a task
    /// that answers room calibrations and says what came of each.
    private func takePart(client: StationClient, player: StationPlayer, output: any AudioOutput, clock: any ClientClock)
        async throws -> Task<Void, Never>?
    {
        guard let outputDelays else { return nil }
        guard !outputDelays.isEmpty, outputDelays.utf8.count <= 4096 else { throw ValidationError("--output-delays names a file") }
        let speaker = RoomCalibrationSpeaker(
            client: client, player: player, output: output, delays: OutputDelayFile(path: outputDelays), name: deviceName,
            clock: clock)
        await speaker.start()
        let quiet = json
        return Task {
            for await event in client.events {
                guard case .room(let signal) = event, let outcome = await speaker.handle(signal), !quiet else { continue }
                switch outcome {
                case .joined: print("Taking part in a room calibration (\(signal.from ?? "a phone")).")
                case .played: print("Played this device's chirps.")
                case .corrected(let total): print(String(format: "This output now starts %.1f ms early.", total))
                case .unchanged(let why): print("\(why) The correction in place stays.")
                }
            }
        }
    }

    private func report(client: StationClient, player: StationPlayer, clock: any ClientClock, tunedAt: Double) async throws {
        let status = await player.currentStatus()
        let estimate = await client.clockEstimate
        // Read the wall clock and ours together, then refer everything to the
        // instant the status describes.
        let wallNow = SystemWallClock.now()
        let localNow = clock.now()
        let wall = wallNow - (status.local.map { localNow - $0 } ?? 0)
        let serverNow = await client.serverNow().map { $0 - (clock.now() - (status.local ?? localNow)) }
        if json {
            // The server's clock is this machine's wall clock, so on the same
            // machine (or a network namespace of it) the true error is known.
            let firstSound = await player.firstSoundAt.map { $0 - tunedAt }
            let line = TuneReport(
                wallTime: wall, serverTime: serverNow, clockErrorMs: serverNow.map { $0 - wall },
                entryID: status.entry?.id, entryStart: status.entry?.start, title: status.entry?.track.title,
                expectedMs: status.expectedMs, actualMs: status.actualMs, syncErrorMs: status.syncErrorMs,
                roundTripMs: estimate?.bestRoundTrip, samples: estimate?.sampleCount ?? 0, firstSoundMs: firstSound)
            print(String(decoding: try JSONEncoder().encode(line), as: UTF8.self))
        } else if let entry = status.entry {
            let position = format(time: status.expectedMs ?? 0)
            print(
                "▶ \(entry.track.title) — \(entry.track.artist)  \(position)/\(format(time: Double(entry.durationMs)))"
                    + "  server clock − ours \(String(format: "%+.1f", (serverNow ?? 0) - SystemWallClock.now())) ms"
                    + " (\(estimate?.sampleCount ?? 0) probes)"
                    + "  rtt \(String(format: "%.2f", estimate?.bestRoundTrip ?? 0)) ms"
                    + "  sync error \(String(format: "%+.1f", status.syncErrorMs ?? 0)) ms")
        } else {
            print("… waiting for the station")
        }
    }

    private func format(time ms: Double) -> String {
        let seconds = Int(ms / 1000)
        return String(format: "%d:%02d", seconds / 60, seconds % 60)
    }
}

/// One line of `wavelength tune --json`.
struct TuneReport: Codable {
    /// This machine's wall clock when the line was made (ms).
    var wallTime: Double
    /// What the client believes the server clock reads.
    var serverTime: Double?
    /// serverTime − wallTime: the clock sync's true error when client and
    /// server share a machine's clock.
    var clockErrorMs: Double?
    var entryID: String?
    var entryStart: Int64?
    var title: String?
    var expectedMs: Double?
    var actualMs: Double?
    var syncErrorMs: Double?
    var roundTripMs: Double?
    var samples: Int
    /// From tuning in to the first sound, in ms.
    var firstSoundMs: Double?
}

enum SystemWallClock {
    static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) * 1000 + Double(spec.tv_nsec) / 1_000_000
    }
}
