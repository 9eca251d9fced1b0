import Foundation
import Logging
import NIOCore
import Synchronization
import WavelengthCore
import WavelengthStore
import WavelengthWire

/// The stations' live sources: who may go live where, the one source each
/// station has at a time, and the relay its listeners hear it through.
///
/// A source is let in with a stream key that belongs to the station's
/// owner (at any time) or to a host of the show on the air now. Wrong keys
/// count against the address like wrong passwords, and are never logged.
/// A browser goes live as its signed-in person, by the same rule.
///
/// A source on the air takes over the station's timeline (a `live` entry,
/// cut in like a skip); when it leaves, the entry ends `grace` later
/// unless the same person's source is back by then.
actor LiveSources {
    /// A source on the air.
    struct Live: Sendable {
        let id: UInt64
        let personID: String
        let hub: StationHub
        let request: SourceStream
        let relay: StationStream
        let since: EpochMillis
        var title: String?
        /// Hangs up the source's connection.
        let close: @Sendable () -> Void
    }

    /// What the source's connection is told.
    enum Decision: Sendable {
        /// It may send audio: each chunk goes to `sink`.
        case accepted(AsyncStream<ByteBuffer>.Continuation)
        /// A metadata update was taken.
        case updated
        case refused(status: Int, reason: String, message: String)
    }

    private var live: [StationID: Live] = [:]
    private var nextID: UInt64 = 0
    /// Sources on the air now, for the control room.
    var count: Int { live.count }
    private let directory: StationDirectory
    private let keys: any StreamKeyRepository
    private let schedule: any ScheduleRepository
    /// Bans: a banned host never goes live (nil in tests that need no bans).
    private let access: (any StationAccessRepository)?
    private let attempts: AttemptGuard
    /// The wall clock (read by the source handlers too, for their bitrate caps).
    let clock: any ServerClock
    /// What renewals and the relays' sweeps sleep on.
    private let pacing: Pacing
    private let stallTimeout: Duration
    private let grace: Duration
    /// How often a show on the air is scheduled on for another day.
    private let renewal: Duration
    /// Names the show's songs from its audio (none where there is no library to match).
    private let spotter: LiveSongSpotter?
    private let metrics: ServerMetrics
    private let logger: Logger

    init(
        directory: StationDirectory, keys: any StreamKeyRepository, schedule: any ScheduleRepository,
        access: (any StationAccessRepository)? = nil, attempts: AttemptGuard, clock: any ServerClock, stallTimeout: Duration, grace: Duration,
        renewal: Duration = .seconds(12 * 3_600), spotter: LiveSongSpotter? = nil, metrics: ServerMetrics, logger: Logger,
        pacing: Pacing = .system
    ) {
        self.pacing = pacing
        self.renewal = renewal
        self.grace = grace
        self.spotter = spotter
        self.directory = directory
        self.keys = keys
        self.schedule = schedule
        self.access = access
        self.attempts = attempts
        self.clock = clock
        self.stallTimeout = stallTimeout
        self.metrics = metrics
        self.logger = logger
    }

    /// The source on the air on a station, if any.
    func source(of stationID: StationID) -> Live? { live[stationID] }

    /// Every source on the air, by station.
    func all() -> [StationID: Live] { live }

    /// Decides a source's request; an accepted stream goes on the air.
    func open(_ request: SourceRequest, address: String, channel: any Channel) async -> Decision {
        switch request {
        case .stream(let stream):
            do {
                let (personID, hub) = try await authorize(key: stream.key, stationID: stream.stationID, address: address)
                return await goLive(stream, personID: personID, hub: hub, from: address) { channel.close(promise: nil) }
            } catch let refusal as Refusal {
                return refusal.decision
            } catch {
                logger.error("A live source could not be let in: \(error)")
                return .refused(status: 500, reason: "Internal Server Error", message: "The source could not be let in.")
            }
        case .metadata(let update):
            return await retitle(update, address: address)
        }
    }

    /// Broadcast software's title update (`GET /admin/metadata?mode=updinfo`,
    /// on the source port or the main one, as Icecast takes it on either):
    /// the show's title from now on, on the relay and the station's stream.
    func retitle(_ update: SourceMetadata, address: String) async -> Decision {
        do {
            let (personID, hub) = try await authorize(key: update.key, stationID: update.stationID, address: address)
            guard var source = live[hub.id], source.personID == personID else {
                return .refused(status: 400, reason: "Bad Request", message: "This station has no source of yours on the air.")
            }
            source.title = update.title.isEmpty ? nil : update.title
            live[hub.id] = source
            await source.relay.nowPlaying(artist: nil, title: source.title)
            return .updated
        } catch let refusal as Refusal {
            return refusal.decision
        } catch {
            return .refused(status: 500, reason: "Internal Server Error", message: "The update could not be taken.")
        }
    }

    /// A browser going live as `personID` (signed in), with its audio
    /// already turned into MP3 by the caller.
    func openBrowser(
        personID: String, stationID: StationID, title: String?, address: String, close: @escaping @Sendable () -> Void
    ) async -> Decision {
        do {
            guard let hub = try await directory.hub(id: stationID) else {
                return .refused(status: 404, reason: "Not Found", message: "No station with id \(stationID).")
            }
            try await requireMayGoLive(personID, on: hub)
            let stream = SourceStream(
                stationID: stationID, key: "", contentType: "audio/mpeg", expectsContinue: false, legacy: false,
                name: title, genre: nil, description: nil, audioInfo: "bitrate=\(BrowserTranscoder.bitrateKbps)", url: nil)
            return await goLive(stream, personID: personID, hub: hub, from: address, close: close)
        } catch let refusal as Refusal {
            return refusal.decision
        } catch {
            logger.error("A browser source could not be let in: \(error)")
            return .refused(status: 500, reason: "Internal Server Error", message: "The source could not be let in.")
        }
    }

    private func goLive(
        _ request: SourceStream, personID: String, hub: StationHub, from address: String,
        close: @escaping @Sendable () -> Void
    ) async -> Decision {
        guard live[hub.id] == nil else {
            // Icecast's own answer for a mount that has a source.
            return .refused(status: 403, reason: "Forbidden", message: "Mountpoint in use: this station already has a live source.")
        }
        nextID += 1
        let id = nextID
        let relay = StationStream(
            stationID: hub.id, grace: .seconds(1), stallTimeout: stallTimeout, logger: logger, metrics: metrics,
            report: { change in Task { await hub.streamAudience(change) } },
            // The "encoder" is the source itself: nothing to start; the
            // relay lives until the source leaves.
            start: { _ in Task {} },
            pacing: pacing, wall: clock)
        let (chunks, sink) = AsyncStream<ByteBuffer>.makeStream(bufferingPolicy: .bufferingNewest(4096))
        live[hub.id] = Live(
            id: id, personID: personID, hub: hub, request: request, relay: relay, since: clock.now(), title: nil, close: close)
        logger.info("Live source on station \(hub.id) from \(address) (person \(personID)): \(request.audioInfo ?? "no audio info")")
        let title = await showTitle(request, hub: hub)
        Task {
            // On the air for every listener: the live entry takes over.
            do {
                try await hub.liveStarted(personID: personID, title: title)
            } catch {
                self.logger.error("The live show on station \(hub.id) could not take over its timeline: \(error)")
            }
            if let spotter = self.spotter {
                let heard = await relay.tap()
                Task { await spotter.run(heard, hub: hub) }
            }
            // A live entry is scheduled a day ahead (its real length is known
            // when the source leaves): a marathon is scheduled on, or after
            // 24 h the robot would take the air back from a show still on.
            let renewal = self.renewal, logger = self.logger, sleep = self.pacing.sleep
            let renewing = Task {
                while (try? await sleep(renewal)) != nil {
                    do {
                        try await hub.liveRenewed(personID: personID)
                    } catch {
                        logger.error("The live show on station \(hub.id) could not be scheduled on: \(error)")
                    }
                }
            }
            for await chunk in chunks { await relay.append(chunk) }
            renewing.cancel()
            await self.ended(hub.id, id: id)
        }
        return .accepted(sink)
    }

    /// What listeners see the show as: what the software calls it, else
    /// the show on the schedule now, else "Live".
    private func showTitle(_ request: SourceStream, hub: StationHub) async -> String {
        if let name = request.name?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty {
            return String(StreamController.headerSafe(name).prefix(120))
        }
        let shows = (try? await schedule.shows(stationID: hub.id)) ?? []
        if let episode = StationSchedule(shows: shows).onAir(at: clock.now()),
            let show = shows.first(where: { $0.id == episode.showID })
        {
            return show.name
        }
        return "Live"
    }

    private func ended(_ stationID: StationID, id: UInt64) async {
        guard let source = live[stationID], source.id == id else { return }
        // The show's end is on the timeline before another source may come
        // on: a quick reconnect then carries the show on, never the reverse.
        await source.hub.liveLeft(personID: source.personID, grace: grace.milliseconds)
        live[stationID] = nil
        await source.relay.encoderEnded()
        logger.info("Live source on station \(stationID) left after \((clock.now() - source.since) / 1000) s")
    }

    /// A browser's new title for its show: the stream's title from now on.
    func retitle(stationID: StationID, personID: String, title: String) async {
        guard var source = live[stationID], source.personID == personID else { return }
        source.title = title.isEmpty ? nil : title
        live[stationID] = source
        await source.relay.nowPlaying(artist: nil, title: source.title)
    }

    /// The person's stream key was replaced or removed: their sources on
    /// the air go off at once (a leaked key must stop a stranger's show too).
    func keyChanged(personID: String) {
        for source in live.values where source.personID == personID {
            logger.info("Live source on station \(source.relay.stationID) closed: its stream key was replaced or removed")
            source.close()
        }
    }

    /// Closes every source's connection (the server is stopping).
    func closeAll() {
        for source in live.values { source.close() }
    }

    private struct Refusal: Error {
        let decision: Decision
        static let wrongKey = Refusal(
            decision: .refused(status: 401, reason: "Unauthorized", message: "Wrong stream key."))
    }

    /// The key's holder and the station, when they may go live there now.
    private func authorize(key: String, stationID: StationID, address: String) async throws -> (String, StationHub) {
        let personID: String
        do {
            personID = try await attempts.attempt(.source(address: address), isFailure: { $0 is Refusal }) {
                guard key.utf8.count <= 200, let holder = try await self.keys.streamKeyHolder(hash: Secrets.hash(key)) else {
                    throw Refusal.wrongKey
                }
                return holder
            }
        } catch let error as APIError {
            throw Refusal(decision: .refused(status: 429, reason: "Too Many Requests", message: error.message))
        }
        guard let hub = try await directory.hub(id: stationID) else {
            throw Refusal(decision: .refused(status: 404, reason: "Not Found", message: "No station with id \(stationID)."))
        }
        try await requireMayGoLive(personID, on: hub)
        return (personID, hub)
    }

    /// The owner may go live at any time; a show's host while it airs,
    /// unless banned (`ShowHosts.mayGoLive`).
    private func requireMayGoLive(_ personID: String, on hub: StationHub) async throws {
        let record = await hub.record
        let shows = try await schedule.shows(stationID: hub.id)
        let hostsOnAir =
            StationSchedule(shows: shows).onAir(at: clock.now()).flatMap { episode in
                shows.first { $0.id == episode.showID }?.hostIDs.contains(personID)
            } ?? false
        let banned =
            record.ownerID != personID && hostsOnAir
            ? try await access?.access(stationID: hub.id, personID: personID, ownerID: record.ownerID).banned ?? false
            : false
        guard ShowHosts.mayGoLive(isOwner: record.ownerID == personID, hostsShowOnAir: hostsOnAir, isBanned: banned) else {
            throw Refusal(
                decision: .refused(
                    status: 403, reason: "Forbidden",
                    message: banned
                        ? "You were banned from this station."
                        : "Only the station's owner, or a host of the show on the air now, may go live here."))
        }
    }

    /// Who may be on the air changed on a station (a ban, a co-DJ revoked,
    /// the schedule edited): a source whose person no longer may is cut at
    /// once, as if it had left.
    func revalidate(stationID: StationID) async {
        guard let source = live[stationID] else { return }
        do {
            try await requireMayGoLive(source.personID, on: source.hub)
        } catch {
            logger.info("Live source on station \(stationID) cut: its person may no longer go live there")
            source.close()
            await ended(stationID, id: source.id)
        }
    }
}
