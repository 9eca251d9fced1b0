import Foundation
import WavelengthCore
import WavelengthStore
import WavelengthWire

/// Finds station hubs, loading each from storage the first time it is
/// needed, so a thousand quiet stations cost only their rows on disk.
actor StationDirectory {
    private let context: StationContext
    private let access: any StationAccessRepository
    private var hubs: [StationID: StationHub] = [:]
    /// Stations other nodes run, fed to listeners here (see `StationFeed`).
    private var feeds: [StationID: StationFeed] = [:]
    /// How this node opens a feed; nil on one node (or without a
    /// `--node-address` to be reached at), where a station another node
    /// runs is refused instead (503, try again).
    private let feedSetup: StationFeed.Setup?
    /// The stations whose lease this node holds (all it runs, on one node).
    private var held: Set<StationID> = []
    /// When each held station was last claimed (see `joiningTime`).
    private var claimedAt: [StationID: ContinuousClock.Instant] = [:]
    private let leases: any StationLeases
    /// How this node tells the others what changed (see `SignalFollower`).
    private let signals: any ClusterSignals
    /// Which lobby each person is in: one at a time.
    private var lobbies = LobbyMembership()
    /// The codes stations are handed.
    private let band: FrequencyBand
    /// How many stations one account may own, its own station included.
    let stationsPerAccount: Int
    /// What the stations with listeners may be playing (for the transcoder).
    nonisolated var onAir: OnAirTracks { context.onAir }

    init(
        context: StationContext, access: any StationAccessRepository, leases: any StationLeases,
        signals: any ClusterSignals, band: FrequencyBand = .fm, stationsPerAccount: Int = 10,
        feedSetup: StationFeed.Setup? = nil
    ) {
        self.context = context
        self.feedSetup = feedSetup
        self.leases = leases
        self.signals = signals
        self.access = access
        self.band = band
        self.stationsPerAccount = stationsPerAccount
    }

    /// The audience of each loaded station someone listens to now.
    func audiences() async -> [(StationID, Audience.Counts)] {
        var found: [(StationID, Audience.Counts)] = []
        for (id, hub) in hubs {
            let counts = await hub.audience
            if counts != Audience.Counts() { found.append((id, counts)) }
        }
        return found
    }

    /// A station runs on the node holding its lease (`StationLeases`): one
    /// node when the store is SQLite, any of a cluster's on PostgreSQL. A
    /// station another node runs is refused here (`StationElsewhere`); a
    /// station this node takes back after another ran it is read again.
    func hub(id: StationID) async throws -> StationHub? {
        if let hub = hubs[id], held.contains(id) { return hub }
        let claim: LeaseClaim
        do {
            claim = try await leases.claimLease(stationID: id)
        } catch StorageError.noSuchStation {
            return nil
        }
        switch claim {
        case .elsewhere(let node):
            throw StationElsewhere(stationID: id, node: node)
        case .held(_, let stale):
            held.insert(id)
            claimedAt[id] = .now
            // It runs here now: a feed's listeners reconnect to its hub.
            feeds.removeValue(forKey: id)?.retire()
            if let hub = hubs[id] {
                guard stale else { return hub }
                hubs[id] = nil
                await hub.retire(reason: "the station ran on another node meanwhile")
            }
        }
        guard let loaded = try await context.repository.loadStation(id: id) else { return nil }
        // The reactions to the song playing, as kept before a restart.
        let playing = loaded.state.timeline.current(at: loaded.state.timelineTime(at: context.clock.now()))
        var kept: [String: Int] = [:]
        if let playing { kept = try await context.repository.reactions(stationID: id, entryID: playing.id) }
        // Another caller may have loaded it while we awaited storage.
        if let hub = hubs[id] { return hub }
        let hub = StationHub(loaded: loaded, context: context)
        if let playing, !kept.isEmpty {
            await hub.resumeReactions(entryID: playing.id, trackID: playing.trackID, totals: kept)
        }
        hubs[id] = hub
        return hub
    }

    /// What a live connection to the station is seated on: its hub when it
    /// runs here (or nowhere yet: it starts here); when another node of the
    /// cluster runs it, the feed from that node, which listeners here share.
    func liveStation(id: StationID) async throws -> LiveStation? {
        // A feed that is up serves without asking storage who runs the
        // station: a crowd joining through this node would otherwise contend
        // on the station's lease row, one claim each. (When the station
        // moves, its old node closes the feed, and the next join asks.)
        if let feed = feeds[id], feed.isUp { return .feed(feed) }
        do {
            guard let hub = try await hub(id: id) else { return nil }
            return .hub(hub)
        } catch let elsewhere as StationElsewhere {
            if let feed = feeds[id], feed.node == elsewhere.node { return .feed(feed) }
            guard let feedSetup, !elsewhere.node.address.isEmpty else {
                throw APIError.elsewhere("This station is on the air from another server of this site right now")
            }
            // A feed from the node that ran it before is over.
            feeds.removeValue(forKey: id)?.retire()
            let feed = StationFeed(id: id, node: elsewhere.node, logger: context.logger)
            feeds[id] = feed
            feed.open(feedSetup) { [weak self] in
                Task { await self?.feedEnded(feed) }
            }
            return .feed(feed)
        }
    }

    private func feedEnded(_ feed: StationFeed) {
        if feeds[feed.id] === feed { feeds[feed.id] = nil }
    }

    /// At each lease renewal: a feed nobody here listens to any more closes.
    func closeIdleFeeds() {
        for (id, feed) in feeds where feed.closeIfIdle() { feeds[id] = nil }
    }

    /// How many listeners each feed here has (for tests and figures).
    func relayedListeners() -> [StationID: Int] {
        feeds.mapValues(\.listenerCount)
    }

    /// Files left the library: every station running here takes their
    /// tracks off its timeline. (A quiet station's saved timeline is left as
    /// it is.)
    func tracksLeftTheLibrary(_ gone: Set<TrackID>) async {
        guard !gone.isEmpty else { return }
        for hub in hubs.values { await hub.leaveOut(tracks: gone) }
    }

    /// An upload its uploader took back leaves every station but theirs.
    func privateTrackLeaves(_ id: TrackID, keepingOwner owner: String?) async {
        for hub in hubs.values where await hub.record.ownerID != owner { await hub.leaveOut(tracks: [id]) }
    }

    /// The stations someone listens to here, and those claimed moments ago
    /// (their first listener may still be joining): the leases this node
    /// renews. The rest it holds are let go.
    func activeStations() async -> Set<StationID> {
        var active: Set<StationID> = []
        let now = ContinuousClock.now
        for (id, hub) in hubs where held.contains(id) {
            if let claimed = claimedAt[id], now - claimed < joiningTime {
                active.insert(id)
            } else if await hub.isListenedTo {
                active.insert(id)
            }
        }
        return active
    }

    /// How long a station just claimed counts as listened to: longer than a
    /// loaded node takes from the claim to seating the listener who asked.
    /// (Without it a renewal let go of every station whose first listener
    /// was still joining, and a node taking a hundred at once ran many
    /// unleased until it claimed them again, one by one.)
    private(set) var joiningTime: Duration = .seconds(3)

    /// Tests that drive a renewal by hand see stations as they are.
    func countJoining(for time: Duration) { joiningTime = time }

    /// After a renewal: quiet stations' leases were let go (taken again
    /// when next used); stations lost to another node stop here, and their
    /// listeners reconnect to wherever the station runs now.
    func renewed(active: Set<StationID>, lost: Set<StationID>) async {
        held = held.intersection(active).subtracting(lost)
        claimedAt = claimedAt.filter { held.contains($0.key) }
        for id in lost {
            guard let hub = hubs.removeValue(forKey: id) else { continue }
            context.logger.warning("Station \(id) runs on another node now; stopping it here")
            await hub.retire(reason: "the station moved to another node")
        }
        // Someone tuned in while the renewal let a quiet station's lease go:
        // its hub is listened to here but unleased, so it is claimed again
        // now, before another node's request can take it. (Lost to one in
        // that moment, it stops here and its listeners reconnect.)
        for (id, hub) in hubs where !held.contains(id) && !lost.contains(id) {
            guard await hub.isListenedTo, !held.contains(id), hubs[id] === hub else { continue }
            do {
                _ = try await self.hub(id: id)
            } catch let elsewhere as StationElsewhere {
                guard hubs[id] === hub, !held.contains(id) else { continue }
                hubs[id] = nil
                context.logger.notice("Station \(id) was taken by node \(elsewhere.node.id) as it went quiet here")
                await hub.retire(reason: "the station moved to another node")
            } catch {
                context.logger.warning("Could not claim station \(id) again after a renewal: \(error)")
            }
        }
    }

    /// Whether a station running here still seats a connection: at a stop,
    /// the lease keeper waits for their departures to be saved.
    func seatsConnections() async -> Bool {
        for (id, hub) in hubs where held.contains(id) {
            if await hub.seatsConnections { return true }
        }
        return false
    }

    /// At a graceful stop every lease was let go: nothing is held, and
    /// nothing claimed again (listeners still here are about to be closed).
    func handedOver() {
        held = []
        claimedAt = [:]
    }

    /// `personID` is now listening to the lobby `stationID`: they leave the
    /// lobby they were in before (seed 004: one lobby at a time), here and,
    /// told by a signal, on any other node.
    func enteredLobby(personID: String, name: String, stationID: StationID) async {
        if let previous = lobbies.entered(personID, station: stationID), let hub = hubs[previous] {
            await hub.leftForAnotherLobby(personID: personID, name: name)
        }
        await publish(ClusterSignal(kind: .enteredLobby, stationID: stationID, personID: personID, node: ""))
    }

    /// Another node seated `personID` in the lobby `stationID`: they leave
    /// the one they were in here.
    func enteredLobbyElsewhere(personID: String, stationID: StationID) async {
        guard let previous = lobbies.entered(personID, station: stationID), let hub = hubs[previous] else { return }
        let name = await hub.connectedSeats().first { $0.personID == personID }?.name ?? "A listener"
        await hub.leftForAnotherLobby(personID: personID, name: name)
    }

    /// Tells the other nodes (a no-op on one node). A signal that can't be
    /// sent is logged: what it would change is seen at the next reload.
    private func publish(_ signal: ClusterSignal) async {
        do {
            try await signals.publish(signal)
        } catch {
            context.logger.warning("Could not tell the other nodes that station \(signal.stationID) changed: \(error)")
        }
    }

    func hub(frequency: String) async throws -> StationHub? {
        guard let record = try await context.repository.station(frequency: frequency),
            record.liveFrequency(at: context.clock.now()) == frequency
        else { return nil }
        return try await hub(id: record.id)
    }

    /// Creates a station with a free frequency. A code-protected station
    /// gets its access code too.
    func create(
        name: String, owner: PersonRecord?, visibility: StationVisibility = .public, ownerKey: String? = nil
    ) async throws -> StationHub {
        let now = context.clock.now()
        var record = StationRecord(
            id: Self.newID(), name: name, owner: owner?.displayName ?? "wavelength", ownerID: owner?.id,
            ownerKeyHash: ownerKey.map(OwnerKey.hash), frequency: nil, visibility: visibility, quietSince: now,
            createdAt: now)
        if visibility == .code { record.accessCode = Self.newAccessCode() }
        let saved: FrequencyAssignment
        do {
            saved = try await context.repository.insertStation(
                record, now: now, band: band, ownerLimit: owner == nil ? nil : stationsPerAccount)
        } catch StorageError.noFrequency {
            throw APIError(.serviceUnavailable, code: .noFrequency, "No free frequency is left on the dial.")
        } catch StorageError.stationLimit(let limit) {
            throw APIError(
                .forbidden, code: .stationLimit,
                "An account has at most \(limit) stations. Rename one of yours in its settings and use it for this.")
        }
        return try await opened(saved)
    }

    /// A new account's own station, saved with the account in one transaction.
    func createAccount(_ person: PersonRecord, upgrading: Bool, people: any PeopleRepository) async throws
        -> StationHub
    {
        let now = context.clock.now()
        let record = StationRecord(
            id: Self.newID(), name: "\(person.displayName)'s station", owner: person.displayName, ownerID: person.id,
            frequency: nil, personal: true, quietSince: now, createdAt: now)
        let saved: FrequencyAssignment
        do {
            saved = try await people.createAccount(person, station: record, upgrading: upgrading, now: now, band: band)
        } catch StorageError.noFrequency {
            throw APIError(.serviceUnavailable, code: .noFrequency, "No free frequency is left on the dial.")
        }
        return try await opened(saved)
    }

    /// The hub of a station just saved with a frequency. A loaded station
    /// whose code was taken back for it stops showing that code at once.
    private func opened(_ saved: FrequencyAssignment) async throws -> StationHub {
        try await refresh(reclaimedFrom: saved.reclaimedFrom)
        guard let hub = try await hub(id: saved.record.id) else { throw StorageError.noSuchStation }
        return hub
    }

    private func refresh(reclaimedFrom other: StationID?) async throws {
        guard let other else { return }
        // Loaded on another node (it runs there): that node reads it again.
        guard let otherHub = hubs[other] else {
            return await publish(ClusterSignal(kind: .stationChanged, stationID: other, node: ""))
        }
        guard let fresh = try await context.repository.station(id: other) else { return }
        await otherHub.applySettings(of: fresh)
    }

    /// A station going on the air needs a code people can tune to. One that
    /// gave its code up while quiet, or whose code expired, gets a new one;
    /// a code-protected station keeps its expired code until the owner
    /// rotates it (its guests must hear the new one from the host).
    func ensureCode(_ hub: StationHub) async throws -> StationRecord {
        let record = await hub.record
        guard record.liveFrequency(at: context.clock.now()) == nil, record.visibility != .code else { return record }
        return try await assignCode(hub, accessCode: record.accessCode, expiresAt: nil)
    }

    /// A new frequency (and access code, for a code-protected station): the
    /// old ones stop working at once.
    func rotateCode(_ hub: StationHub, expiresAt: EpochMillis?) async throws -> StationRecord {
        let record = await hub.record
        return try await assignCode(
            hub, accessCode: record.visibility == .code ? Self.newAccessCode() : nil, expiresAt: expiresAt)
    }

    private func assignCode(_ hub: StationHub, accessCode: String?, expiresAt: EpochMillis?) async throws
        -> StationRecord
    {
        let result: FrequencyAssignment
        do {
            result = try await access.assignCode(
                stationID: hub.id, accessCode: accessCode, expiresAt: expiresAt, now: context.clock.now(), band: band)
        } catch StorageError.noFrequency {
            throw APIError(.serviceUnavailable, code: .noFrequency, "No free frequency is left on the dial.")
        }
        await hub.applySettings(of: result.record)
        try await refresh(reclaimedFrom: result.reclaimedFrom)
        return result.record
    }

    /// An administrator suspended the person: the stations they own go off
    /// the air (everyone is told, and the gate turns listeners away while
    /// the suspension lasts), and their connections elsewhere close.
    /// A block was made or lifted: the stations running here pass chat
    /// between the two as it now says. (Another node's stations learn it
    /// as each of the two connects again.)
    func blockChanged(between one: String, and other: String, stands: Bool) async {
        for hub in hubs.values { await hub.blockChanged(between: one, and: other, stands: stands) }
    }

    func personSuspended(_ personID: String) async {
        for (id, hub) in hubs {
            if await hub.record.ownerID == personID {
                await hub.end()
            } else {
                await hub.letGo(personID: personID)
            }
            await accessChanged(id)
        }
    }

    /// A person about to be deleted: let go of every station they are on
    /// here, and what they wrote in its chat is taken off everyone's
    /// screen (their own stations are stopped by `stopForDeletion`).
    func personDeleted(_ personID: String) async {
        for (id, hub) in hubs where await hub.record.ownerID != personID {
            // Only rooms showing their words change (a save each); the rest of
            // their rows go with them in the deleting transaction.
            if await hub.showsMessages(by: personID) {
                try? await hub.moderate(.deleteAllBy(personID: personID), by: nil)
            }
            await hub.letGo(personID: personID)
            await accessChanged(id)
        }
    }

    /// A station an administrator deletes: its session ends (listeners are
    /// told, other nodes' feeds of it close theirs) and it stops here
    /// before its rows go.
    func stopForDeletion(_ id: StationID) async {
        held.remove(id)
        claimedAt[id] = nil
        if let hub = hubs.removeValue(forKey: id) {
            await hub.end()
            await hub.retire(reason: "an administrator deleted it", deleted: true)
        }
        feeds.removeValue(forKey: id)?.retire()
        await accessChanged(id)
    }

    /// Who may listen to a station this node runs changed (a ban, a kick,
    /// its access, the session's end): other nodes holding its record read
    /// it again.
    func accessChanged(_ id: StationID) async {
        await publish(ClusterSignal(kind: .stationChanged, stationID: id, node: ""))
    }

    /// Reloads a station's record after storage changed it (settings, claim,
    /// release). (A feed of it has nothing to read: the node running it
    /// seats its listeners at the station's rules.)
    func reload(_ id: StationID) async throws {
        guard let hub = hubs[id], let fresh = try await context.repository.station(id: id) else { return }
        await hub.applySettings(of: fresh)
    }

    static func newAccessCode() -> String {
        var rng = SystemRandomNumberGenerator()
        return AccessCode.generate(using: &rng)
    }

    private static func newID() -> StationID {
        "s" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
    }

    /// Live views of the given stations: loaded hubs report listeners and
    /// what plays; the rest are quiet.
    func views(of records: [StationRecord]) async throws -> [StationView] {
        var views: [StationView] = []
        let now = context.clock.now()
        for record in records {
            if let hub = hubs[record.id] {
                views.append(try await hub.view())
            } else {
                views.append(
                    StationView(
                        id: record.id, name: record.name, owner: record.owner, ownerID: record.ownerID,
                        frequency: record.liveFrequency(at: now), visibility: record.visibility,
                        maxListeners: record.maxListeners, revision: record.revision, listeners: 0, onAir: false,
                        nowPlaying: nil, createdAt: record.createdAt))
            }
        }
        return views
    }

    /// How many quiet stations the dial lists: the most recently on the air.
    static let quietListed = 100

    /// The public stations on the air, busiest first; then the quiet ones
    /// most recently on the air, at most `quietListed` of them. A server of
    /// 100,000 stations lists what people can use, not every row.
    func list() async throws -> [StationView] {
        // Storage knows which stations are on the air: waking one saves it.
        let records = try await context.repository.listedStations(limit: Self.quietListed)
        let views = try await views(of: records)
        let onAir = views.filter(\.onAir)
        return Self.busiestFirst(onAir) + views.filter { !$0.onAir }.prefix(Self.quietListed)
    }

    static func busiestFirst(_ views: [StationView]) -> [StationView] {
        views.enumerated().sorted { a, b in
            if a.element.onAir != b.element.onAir { return a.element.onAir }
            if a.element.listeners != b.element.listeners { return a.element.listeners > b.element.listeners }
            return a.offset < b.offset
        }.map(\.element)
    }
}
