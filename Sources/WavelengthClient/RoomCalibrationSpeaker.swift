import Foundation
import WavelengthCore

/// The SDK's part in a room calibration (`RoomSignal`): it answers a
/// phone's call, plays its chirps (`RoomChirp`) through its own output in
/// its slot, and adds the figure the phone sends back to its route's
/// correction. The phone does the measuring; nothing is recorded here.
///
/// A call reaches only the caller's own devices (signed in as the same
/// person), which this speaker answers unless `answersInvitations` is off;
/// any other device takes part with the code the phone shows (`join(code:)`).
///
/// With `FFmpegAudioOutput` the figure includes ffmpeg's start-up, which
/// varies from start to start by a few ms: good enough for a Bluetooth
/// speaker's 150 ms, not for a sub-millisecond claim.
public actor RoomCalibrationSpeaker {
    public enum Outcome: Sendable, Equatable {
        case joined(session: String)
        /// The chirps were handed to the output at this client-clock instant.
        case played(at: Double)
        case corrected(totalMs: Double)
        /// The phone could not measure this device, the figure was absurd,
        /// or the phone stopped: the correction in place stays.
        case unchanged(String)
    }

    private let client: StationClient
    private let player: StationPlayer
    private let output: any AudioOutput
    private let file: OutputDelayFile?
    private let clock: any ClientClock
    private let name: String
    public nonisolated let device = UUID().uuidString
    public private(set) var delays: OutputDelays
    private var session: String?
    /// The connection that sent the call taken (`RoomSignal.sender`): the
    /// plan, figures and cancel count only from it.
    private var caller: String?
    /// A code sent in a join, until the server says whose call it joined.
    private var pendingCode: String?
    private let answersInvitations: Bool

    public init(
        client: StationClient, player: StationPlayer, output: any AudioOutput, delays file: OutputDelayFile? = nil,
        name: String = "Wavelength SDK", clock: any ClientClock = MonotonicClock(), answersInvitations: Bool = true
    ) {
        self.answersInvitations = answersInvitations
        self.client = client
        self.player = player
        self.output = output
        self.file = file
        self.clock = clock
        self.name = String(name.prefix(RoomSignal.maxNameLength))
        self.delays = file?.load() ?? OutputDelays()
    }

    /// The route's stored correction into the player.
    public func start() async {
        await player.setOutputDelay(delays.delay(for: output.name))
    }

    /// Takes part in the calibration whose phone shows `code` (six
    /// digits); `handle` says `.joined` once the server has let it in.
    public func join(code: String) async {
        pendingCode = code
        await client.sendRoom(RoomSignal(kind: .join, session: "by-code", device: device, name: name, code: code))
    }

    /// Takes one signal from the station (`StationEvent.room`).
    public func handle(_ signal: RoomSignal) async -> Outcome? {
        switch signal.kind {
        case .call:
            if let code = signal.code {
                // The server's answer to a join with a code: whose call it is.
                guard code == pendingCode else { return nil }
                pendingCode = nil
                session = signal.session
                caller = signal.sender
                return .joined(session: signal.session)
            }
            // An invitation (one of this person's devices calls), or the
            // server's word that the join was taken.
            guard answersInvitations, signal.session != session else { return nil }
            session = signal.session
            caller = signal.sender
            await client.sendRoom(RoomSignal(kind: .join, session: signal.session, device: device, name: name))
            return .joined(session: signal.session)
        case .plan:
            guard signal.session == session, signal.sender == caller,
                let slot = signal.slots?.first(where: { $0.device == device }),
                let local = await client.localTime(ofServer: Double(slot.at))
            else { return nil }
            return await play(at: local - delays.delay(for: output.name))
        case .result:
            guard signal.session == session, signal.sender == caller,
                let mine = signal.results?.first(where: { $0.device == device })
            else { return nil }
            session = nil
            guard let residual = mine.delayMs else {
                return .unchanged(mine.problem ?? "The phone could not measure this device.")
            }
            do {
                try delays.apply(residualMs: residual, to: output.name, at: Date().timeIntervalSince1970 * 1000)
            } catch {
                return .unchanged(error.description)
            }
            try? file?.save(delays)
            let total = delays.delay(for: output.name)
            await player.setOutputDelay(total)
            return .corrected(totalMs: total)
        case .cancel:
            guard signal.session == session, signal.sender == caller else { return nil }
            session = nil
            return .unchanged("The measuring phone stopped.")
        case .join:
            return nil
        }
    }

    /// The slot's chirps, handed to the output at client-clock `at`: the
    /// player lends it the output until they are over.
    private func play(at: Double) async -> Outcome? {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wavelength-chirps-\(device).wav").path
        guard FileManager.default.createFile(atPath: path, contents: Data(RoomChirp.slotWAV()), attributes: [.posixPermissions: 0o600])
        else { return .unchanged("The chirp could not be written.") }
        let length = RoomChirp.spacingSeconds * 1000 * Double(RoomChirp.repetitions - 1) + RoomChirp.seconds * 1000 + 100
        await player.lend(until: at + length)
        let wait = at - clock.now()
        if wait > 0 { try? await Task.sleep(for: .microseconds(Int(wait * 1000))) }
        try? await output.play(url: path, fileOffsetMs: 0, at: at, gainDb: 0)
        return .played(at: at)
    }
}
