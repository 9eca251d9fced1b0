import Foundation
import WavelengthWire

/// Plays a station through an `AudioOutput`, following the client's plan:
/// the right entry at the right offset, the next one when it is due, and a
/// re-seek when the output drifts past `maxDrift` (with a cooldown so one
/// correction is not followed by another before it took effect).
public actor StationPlayer {
    public struct Status: Sendable, Equatable {
        public var entry: EntryView?
        /// Where the timeline says playback should be, in ms into the file.
        public var expectedMs: Double?
        /// Where the output says it is.
        public var actualMs: Double?
        /// The client-clock instant both positions describe.
        public var local: Double?
        /// The gain the output plays at: the track's loudness gain and the
        /// station's level.
        public var gainDb: Double?
        public var syncErrorMs: Double? {
            guard let expectedMs, let actualMs else { return nil }
            return actualMs - expectedMs
        }
    }

    private let client: StationClient
    private let output: any AudioOutput
    private let maxDrift: Double
    private let cooldown: Double
    private let clock: any ClientClock
    private var playing: EntryID?
    private var playingGain: Double?
    private var lastCorrection = -Double.infinity
    /// What the output route adds after the output takes the sound (ms,
    /// `OutputDelays`): each start is that much earlier, so the sound is
    /// *heard* on time. A delay past the lead time starts mid-song.
    public private(set) var outputDelayMs: Double = 0
    /// Until this client-clock instant the output is lent (a room
    /// calibration's chirps play on it): no step touches it.
    private var lentUntil = -Double.infinity
    public private(set) var status = Status()

    public init(
        client: StationClient, output: any AudioOutput, maxDrift: Double = 100, cooldown: Double = 2_000,
        clock: any ClientClock = MonotonicClock()
    ) {
        self.client = client
        self.output = output
        self.maxDrift = maxDrift
        self.cooldown = cooldown
        self.clock = clock
    }

    /// A new correction for the output's route: the track starts again at
    /// the corrected place at the next step.
    public func setOutputDelay(_ ms: Double) {
        guard ms.isFinite, ms != outputDelayMs else { return }
        outputDelayMs = ms
        playing = nil
    }

    /// Lends the output until client-clock `local`: steps leave it alone,
    /// then the track starts again at its place.
    public func lend(until local: Double) {
        lentUntil = local
        playing = nil
    }

    /// When the first sound started, on the client clock.
    public private(set) var firstSoundAt: Double?

    /// Follows the plan until cancelled: looks every `interval` ms, and wakes
    /// exactly at the next track change so every client switches together.
    public func run(interval: Double = 100) async {
        while !Task.isCancelled {
            await step()
            // Until something plays, look often so tune-in is quick.
            var wait = status.entry == nil ? min(interval, 10) : interval
            if let boundary = status.entry?.expiration, let now = await client.serverNow() {
                wait = min(wait, max(0, Double(boundary) - now))
            }
            guard (try? await Task.sleep(for: .microseconds(Int(wait * 1000)))) != nil else { break }
        }
        await output.stop()
        await client.setPlaying(false)
    }

    /// One look at the plan: start, switch or correct as needed.
    public func step() async {
        guard clock.now() >= lentUntil else { return }
        guard let (plan, planned) = await client.timedPlan(), let entry = plan.current, !plan.paused else {
            if playing != nil {
                await output.stop()
                playing = nil
                await client.setPlaying(false)
            }
            status = Status()
            return
        }
        // A live show is a stream, not a file: it plays from where it is
        // now, and has no position to keep in step with (best effort). Its
        // player says the connection's device key, so a signed-out listener
        // counts once, not as an app and a stream listener.
        let live = entry.source == .live
        var url = await absolute(entry.track.audioURL)
        if live {
            url += (url.contains("?") ? "&" : "?") + "listener=" + client.deviceKey
        }
        let gain = await gain(for: entry)
        // Handed over earlier by the route's delay; the output's position
        // then runs that much ahead of what is heard.
        let local = planned - outputDelayMs
        if playing != entry.id {
            try? await output.play(url: url, fileOffsetMs: live ? 0 : plan.fileOffsetMs, at: local, gainDb: gain)
            playing = entry.id
            playingGain = gain
            lastCorrection = clock.now()
            if firstSoundAt == nil { firstSoundAt = lastCorrection }
            await client.setPlaying(true)
        } else if !live, let playingGain, abs(gain - playingGain) > 0.01 {
            // The room's level moved: the same place, at the new gain.
            try? await output.play(url: url, fileOffsetMs: plan.fileOffsetMs, at: local, gainDb: gain)
            self.playingGain = gain
            lastCorrection = clock.now()
        } else if !live, let actual = await output.position(), abs(actual - outputDelayMs - plan.fileOffsetMs) > maxDrift,
            clock.now() - lastCorrection > cooldown
        {
            try? await output.play(url: url, fileOffsetMs: plan.fileOffsetMs, at: local, gainDb: gain)
            lastCorrection = clock.now()
        }
        status = Status(
            entry: entry, expectedMs: plan.fileOffsetMs, actualMs: await output.position().map { $0 - outputDelayMs },
            gainDb: playingGain)
    }

    /// Where playback is and should be at this moment (not at the last step).
    public func currentStatus() async -> Status {
        guard let (plan, local) = await client.timedPlan(), let entry = plan.current, entry.id == playing,
            let actual = await output.position()
        else { return Status() }
        // Bring the output's answer back to the instant the plan describes.
        return Status(
            entry: entry, expectedMs: plan.fileOffsetMs, actualMs: actual - outputDelayMs - (clock.now() - local), local: local)
    }

    /// The gain for `entry` now: a new level counts from its instant on
    /// (until then the track keeps the gain it plays at).
    private func gain(for entry: EntryView) async -> Double {
        let sound = await client.model.sound
        let target = sound.gainDb(for: entry.track)
        guard playing == entry.id, let playingGain, let now = await client.serverNow(), Double(sound.since) > now
        else { return target }
        return playingGain
    }

    private func absolute(_ path: String) async -> String {
        guard path.hasPrefix("/") else { return path }
        var base = client.configuration.serverURL
        if base.hasSuffix("/") { base.removeLast() }
        return base + path
    }
}
