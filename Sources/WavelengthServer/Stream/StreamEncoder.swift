import Foundation
import Logging
import NIOCore
import Subprocess
import Synchronization
import WavelengthCore
import WavelengthLibrary
import WavelengthStore
import WavelengthWire

/// Plays a station's timeline into one MP3 encoder, in step with the clock.
///
/// One ffmpeg encodes 44.1 kHz stereo PCM from its standard input to a
/// 128 kbps MP3 stream on its standard output, which goes to the station's
/// `StationStream`. The PCM comes from the timeline: for the entry playing
/// at the stream's position, a second ffmpeg decodes the track's file from
/// that point, and its samples are fed at real-time pace, never more than
/// `lead` ahead of the clock. A skip or any change that puts another entry
/// at the stream's position ends that decoder and starts the next; a gap or
/// a pause is silence. A live entry is the live source's relay, decoded as
/// it arrives (silence while its source is away).
struct StreamEncoder: Sendable {
    static let sampleRate = 44_100
    static let bytesPerFrame = 4  // 16-bit stereo
    static let bitrateKbps = 128
    /// What the stream is, as Icecast's `ice-audio-info` says it.
    static let audioInfo = "channels=2;samplerate=\(sampleRate);bitrate=\(bitrateKbps)"
    /// How far ahead of the clock the PCM may run: what the encoder has
    /// buffered plus this is how far the stream may lead the app.
    static let lead: Int64 = 500
    /// How far the PCM may fall behind the clock (a loaded machine, a slow
    /// decoder start) before the stream jumps to where the station is: a
    /// radio drops a moment rather than fall out of step with the app.
    static let maxLag: Int64 = 1_000
    /// What the stream is handed at a time: half a second at 128 kbps.
    /// It adds at most that much to the stream's lag behind the app.
    static let chunkBytes = 8_000

    let stationID: StationID
    let hub: StationHub
    let tracks: any TrackRepository
    let roots: LibraryRoots
    let sources: LiveSources?
    /// Where voice clips' audio is.
    let clips: ClipStore?
    let clock: any ServerClock
    let logger: Logger
    /// What the encoder waits on: its pace ahead of `clock`, and its look at a live show ending.
    var pacing: Pacing = .system

    /// Runs until cancelled (the last stream listener left) or ffmpeg fails.
    func run(into stream: StationStream) async {
        let follower = TimelineFollower()
        let connection = ConnectionIDs.next()
        do {
            try await hub.connect(
                connection, queue: follower.queue, since: nil,
                seat: Seat(personID: nil, name: "Radio stream", role: .listener, audience: nil))
        } catch {
            logger.error("The stream of station \(stationID) could not join it: \(error)")
            await stream.encoderEnded()
            return
        }
        defer { Task { await hub.disconnect(connection) } }
        let following = Task { await follower.follow() }
        defer { following.cancel() }
        do {
            let arguments = [
                "-nostdin", "-hide_banner", "-loglevel", "error",
                "-f", "s16le", "-ar", "\(Self.sampleRate)", "-ac", "2", "-i", "pipe:0",
                "-c:a", "libmp3lame", "-b:a", "\(Self.bitrateKbps)k", "-f", "mp3", "-flush_packets", "1", "pipe:1",
            ]
            let result = try await Subprocess.run(
                .name("ffmpeg"), arguments: Arguments(arguments), input: .inputWriter, output: .sequence, error: .discarded
            ) { execution in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        // ffmpeg writes each MP3 frame as it is made (26 ms of
                        // audio); handing the stream every one woke each
                        // listener ~38 times a second. Frames are gathered to
                        // `chunkBytes` (half a second) first: 2.5 ms of CPU per
                        // listener-minute instead of 19.6 (bench/stream_load.py).
                        var pending = ByteBuffer()
                        for try await chunk in execution.standardOutput {
                            chunk.withUnsafeBytes { _ = pending.writeBytes($0) }
                            guard pending.readableBytes >= Self.chunkBytes else { continue }
                            await stream.append(pending)
                            pending = ByteBuffer()
                        }
                    }
                    group.addTask {
                        try await feed(execution.standardInputWriter, following: follower, stream: stream)
                    }
                    // Either ends: the encoder went away, or the feeder was cancelled.
                    try await group.next()
                    group.cancelAll()
                }
            }
            if !Task.isCancelled {
                logger.error("The stream encoder of station \(stationID) ended: \(result.terminationStatus)")
            }
        } catch {
            if !Task.isCancelled { logger.error("The stream encoder of station \(stationID) failed: \(error)") }
        }
        // Cancelled, the stream stopped it and may already run a new one.
        if !Task.isCancelled { await stream.encoderEnded() }
    }

    /// Writes the timeline's PCM to the encoder, at the clock's pace.
    private func feed(_ encoder: StandardInputWriter, following follower: TimelineFollower, stream: StationStream) async throws {
        var position = clock.now()  // the server instant the next sample belongs to
        while !Task.isCancelled {
            let now = clock.now()
            if position < now - Self.maxLag {
                logger.debug("The stream of station \(stationID) fell \(now - position) ms behind; it jumps ahead")
                position = now
            }
            let window = follower.window()
            if let window, window.pausedAt == nil, let entry = Self.entry(in: window, at: position), entry.source == .live {
                position = try await playLive(entry, from: position, into: encoder, following: follower, stream: stream)
                continue
            }
            guard let window, window.pausedAt == nil || window.pausedAt! > position,
                  let entry = Self.entry(in: window, at: position),
                  let path = await file(of: entry)
            else {
                if let window, let entry = Self.entry(in: window, at: position) {
                    await stream.nowPlaying(artist: entry.track.artist, title: entry.track.title)
                }
                position = try await silence(encoder, from: position, milliseconds: 100)
                continue
            }
            await stream.nowPlaying(artist: entry.track.artist, title: entry.track.title)
            position = try await play(entry, path: path, from: position, into: encoder, following: follower)
        }
    }

    /// The audio file an entry plays: a library track's (inside the
    /// library), or a voice clip's.
    private func file(of entry: EntryView) async -> String? {
        if let clipID = ClipTrack.parse(entry.track.id) {
            guard let path = clips?.path(for: clipID), FileManager.default.fileExists(atPath: path) else { return nil }
            return path
        }
        guard let record = try? await tracks.track(id: entry.track.id) else { return nil }
        return roots.confine(record.path)
    }

    /// Decodes `entry`'s file from where `position` falls in it, until the
    /// entry ends or another one takes its place. Answers where it stopped.
    private func play(
        _ entry: EntryView, path: String, from start: EpochMillis, into encoder: StandardInputWriter,
        following follower: TimelineFollower
    ) async throws -> EpochMillis {
        let fileOffset = max(0, start - entry.start + entry.offsetMs)
        let arguments = [
            "-nostdin", "-hide_banner", "-loglevel", "error", "-ss", String(format: "%.3f", Double(fileOffset) / 1000),
            "-i", path, "-vn", "-f", "s16le", "-ar", "\(Self.sampleRate)", "-ac", "2", "pipe:1",
        ]
        var frames: Int64 = 0
        let until = entry.expiration
        let finished = try await Subprocess.run(
            .name("ffmpeg"), arguments: Arguments(arguments), input: .none, output: .sequence, error: .discarded
        ) { execution -> Bool in
            var carry: [UInt8] = []
            for try await chunk in execution.standardOutput {
                var bytes = carry
                chunk.withUnsafeBytes { bytes.append(contentsOf: $0) }
                let whole = bytes.count / Self.bytesPerFrame * Self.bytesPerFrame
                carry = Array(bytes[whole...])
                var pcm = Array(bytes[..<whole])
                // Not past the entry's end.
                let left = (until - at(start, frames)) * Int64(Self.sampleRate) / 1000
                if Int64(pcm.count / Self.bytesPerFrame) > left {
                    pcm = Array(pcm.prefix(Int(max(0, left)) * Self.bytesPerFrame))
                }
                if !pcm.isEmpty {
                    _ = try await encoder.write(pcm)
                    frames += Int64(pcm.count / Self.bytesPerFrame)
                }
                let now = at(start, frames)
                if now >= until || now < clock.now() - Self.maxLag { return true }
                try await pace(now)
                // A skip, a removal or a move puts another entry here: stop.
                guard let window = follower.window(), Self.entry(in: window, at: now)?.id == entry.id,
                      window.pausedAt.map({ $0 > now }) ?? true
                else { return true }
            }
            return false
        }
        let stopped = at(start, frames)
        switch FileEnd.after(decoderEnded: !finished.closureResult, framesDecoded: frames, stopped: stopped, until: until) {
        case .played, .decodeAgain:
            return stopped  // the next loop finds the same entry, if any, and decodes from here
        case .endedEarly(let silenceMs):
            return try await silence(encoder, from: stopped, milliseconds: silenceMs)
        case .unreadable(let silenceMs):
            logger.warning("The stream could not decode \(path) for station \(stationID)")
            return try await silence(encoder, from: stopped, milliseconds: silenceMs)
        }
    }

    /// Decodes the live source's relay as it arrives, while `entry` is the
    /// one playing. The source is live, so the clock sets the pace; what it
    /// answers is where the stream stands when the show ends or drops.
    private func playLive(
        _ entry: EntryView, from start: EpochMillis, into encoder: StandardInputWriter,
        following follower: TimelineFollower, stream: StationStream
    ) async throws -> EpochMillis {
        guard let source = await sources?.source(of: stationID) else {
            // Away within its grace: silence until it is back or the show ends.
            await stream.nowPlaying(artist: entry.track.artist, title: entry.track.title)
            return try await silence(encoder, from: max(start, clock.now() - Self.maxLag), milliseconds: 100)
        }
        // The software's own title (`updinfo`) is "Artist - Title" whole,
        // as Icecast shows it; without one, the show's.
        let titled: @Sendable (String?) async -> Void = { title in
            await stream.nowPlaying(artist: title == nil ? entry.track.artist : nil, title: title ?? entry.track.title)
        }
        await titled(source.title)
        let relay = await source.relay.tap()
        let relayStream = source.relay
        let arguments = [
            "-nostdin", "-hide_banner", "-loglevel", "error", "-probesize", "32768", "-analyzeduration", "0",
            "-f", "mp3", "-i", "pipe:0", "-vn", "-f", "s16le", "-ar", "\(Self.sampleRate)", "-ac", "2", "pipe:1",
        ]
        let (clock, sleep) = (self.clock, pacing.sleep)
        let decoded = try await Subprocess.run(
            .name("ffmpeg"), arguments: Arguments(arguments), input: .inputWriter, output: .sequence, error: .discarded
        ) { execution -> Bool in
            await withThrowingTaskGroup(of: LiveDecoding.self) { group in
                group.addTask {
                    var shown = source.title
                    for await chunk in relay {
                        _ = try await execution.standardInputWriter.write(Array(chunk.readableBytesView))
                        // A title change mid-show reaches the stream's
                        // listeners with the audio that follows it.
                        let now = await relayStream.song.title
                        if now != shown {
                            shown = now
                            await titled(now)
                        }
                    }
                    try await execution.standardInputWriter.finish()
                    return .relayEnded
                }
                group.addTask {
                    var any = false
                    for try await chunk in execution.standardOutput {
                        _ = try await encoder.write(chunk.withUnsafeBytes { Array($0) })
                        any = true
                    }
                    return .decoderEnded(decodedAny: any)
                }
                group.addTask {
                    // The show ended, or the DJ took it off: stop at once.
                    while let window = follower.window(), Self.entry(in: window, at: clock.now())?.id == entry.id {
                        try await sleep(.milliseconds(250))
                    }
                    return .showEnded
                }
                // The decoder or the show ending (or a failure) cancels the
                // rest, whose cancellation errors end them quietly.
                var decodedAny = false
                while true {
                    do {
                        guard let ended = try await group.next() else { break }
                        switch ended {
                        case .relayEnded: continue
                        case .decoderEnded(let any): decodedAny = any
                        case .showEnded: break
                        }
                        group.cancelAll()
                    } catch {
                        group.cancelAll()
                    }
                }
                return decodedAny
            }
        }.closureResult
        // A source gone before a sound: keep the stream going meanwhile.
        if !decoded {
            return try await silence(encoder, from: max(start, clock.now() - Self.maxLag), milliseconds: 100)
        }
        return clock.now()
    }

    private enum LiveDecoding: Sendable {
        case relayEnded
        case decoderEnded(decodedAny: Bool)
        case showEnded
    }

    private func silence(_ encoder: StandardInputWriter, from start: EpochMillis, milliseconds: Int) async throws -> EpochMillis {
        let frames = Self.sampleRate * milliseconds / 1000
        _ = try await encoder.write([UInt8](repeating: 0, count: frames * Self.bytesPerFrame))
        let end = start + Int64(milliseconds)
        try await pace(end)
        return end
    }

    /// Waits until the stream is no more than `lead` ahead of the clock.
    private func pace(_ position: EpochMillis) async throws {
        let ahead = position - clock.now() - Self.lead
        if ahead > 0 { try await pacing.sleep(.milliseconds(ahead)) }
    }

    private func at(_ start: EpochMillis, _ frames: Int64) -> EpochMillis {
        start + frames * 1000 / Int64(Self.sampleRate)
    }

    /// The entry that plays at `instant`, if any.
    static func entry(in window: TimelineWindow, at instant: EpochMillis) -> EntryView? {
        ([window.current].compactMap { $0 } + window.upNext).first { $0.start <= instant && instant < $0.expiration }
    }
}

/// The station's timeline as the hub broadcasts it, read from the queue the
/// stream holds as one of the station's listeners.
final class TimelineFollower: Sendable {
    let queue: AsyncStream<LiveOutgoing>.Continuation
    private let messages: AsyncStream<LiveOutgoing>
    private let latest = Mutex<TimelineWindow?>(nil)

    init() {
        (messages, queue) = AsyncStream.makeStream(of: LiveOutgoing.self, bufferingPolicy: .bufferingNewest(64))
    }

    func window() -> TimelineWindow? { latest.withLock { $0 } }

    func follow() async {
        let decoder = JSONDecoder()
        for await outgoing in messages {
            guard case .text(let text) = outgoing,
                  let message = try? decoder.decode(ServerMessage.self, from: Data(text.text.utf8))
            else { continue }
            switch message {
            case .snapshot(let snapshot): latest.withLock { $0 = snapshot.timeline }
            case .update(let window): latest.withLock { $0 = window }
            default: break
            }
        }
    }
}
