import WavelengthCore
import WavelengthLibrary
import WavelengthStore

/// Stations and library tracks kept in memory, behind the same protocols
/// as the SQLite database: for tests of the station hub that need no
/// database file. Each method is one atomic step, as each of the
/// database's is one transaction. It can be told to fail saves, so tests
/// can check that a refused save leaves nothing visible.
public actor InMemoryStore: StationRepository, TrackRepository {
    private var stations: [StationID: StationRecord] = [:]
    private var states: [StationID: StationState] = [:]
    private var plays: [StationID: [Play]] = [:]
    private var minutes: [StationID: [EpochMillis: ListenerMinute]] = [:]
    private var commands: [StationID: [AppliedCommand]] = [:]
    private var pools: [StationID: [TrackID]] = [:]
    private var parties: [StationID: RequestQueue] = [:]
    private var thumbRows: [StationID: [Thumb]] = [:]
    private var tastes: [StationID: TasteModel] = [:]
    private var lobbies: [StationID: LobbyState.Saved] = [:]
    private var standings: [StationID: [String: Credibility]] = [:]
    private var trackRows: [TrackID: TrackRecord] = [:]
    private var printRows: [TrackID: AudioFingerprint] = [:]
    private var likedRows: [(person: String, track: TrackID, at: EpochMillis)] = []
    private var chats: [StationID: ChatRoom.Saved] = [:]
    /// Every message kept, not only the newest (a station's `chats` holds those).
    private var chatLog: [StationID: [ChatMessage]] = [:]
    private var reactionTotals: [StationID: [EntryID: [String: Int]]] = [:]
    /// While set, every save throws this.
    private var saveFailure: (any Error & Sendable)?
    public private(set) var saveCount = 0

    /// How frequencies are drawn (a seed gives the same codes every run).
    private let frequencyDraw: FrequencyDraw

    public init(tracks: [TrackRecord] = [], frequencyDraw: FrequencyDraw = .seeded(1)) {
        self.frequencyDraw = frequencyDraw
        for track in tracks { trackRows[track.id] = track }
    }

    public func failSaves(with error: (any Error & Sendable)?) {
        saveFailure = error
    }

    // MARK: StationRepository

    /// A code by the core's rule (`FrequencyAllocation`), as every store
    /// draws it: a quiet station gives its code back when the band is full.
    public func insertStation(_ record: StationRecord, now: EpochMillis, band: FrequencyBand, ownerLimit: Int?)
        async throws -> FrequencyAssignment
    {
        if let ownerLimit, let owner = record.ownerID,
            stations.values.count(where: { $0.ownerID == owner }) >= ownerLimit
        {
            throw StorageError.stationLimit(ownerLimit)
        }
        var record = record
        var ledger = FrequencyHolders(
            stations.values.compactMap { station in
                station.frequency.map {
                    FrequencyHolders.Holder(
                        stationID: station.id, frequency: $0, codeExpiresAt: station.codeExpiresAt,
                        quietSince: station.quietSince, codeProtected: station.visibility == .code)
                }
            })
        let allocation: FrequencyAllocation.Allocation
        do {
            allocation = try frequencyDraw.draw { rng in
                try FrequencyAllocation.allocate(in: &ledger, now: now, band: band, using: &rng)
            }
        } catch is FrequencyAllocation.BandFull {
            throw StorageError.noFrequency
        }
        for id in ledger.released { stations[id]?.frequency = nil }
        record.frequency = allocation.frequency
        stations[record.id] = record
        states[record.id] = StationState(
            id: record.id, revision: record.revision, quietSince: record.quietSince ?? now)
        return (record, allocation.reclaimedFrom)
    }

    public func listedStations(limit: Int) async throws -> [StationRecord] {
        let listed = stations.values.filter(\.visibility.isListed)
        let onAir = listed.filter { $0.quietSince == nil }.prefix(limit)
        let quiet = listed.filter { $0.quietSince != nil }.sorted { $0.quietSince! > $1.quietSince! }.prefix(limit)
        return Array(onAir) + Array(quiet)
    }

    public func allStations() async throws -> [StationRecord] {
        stations.values.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    public func station(id: StationID) async throws -> StationRecord? {
        stations[id]
    }

    public func station(frequency: String) async throws -> StationRecord? {
        stations.values.first { $0.frequency == frequency }
    }

    public func loadStation(id: StationID) async throws -> LoadedStation? {
        guard let record = stations[id], let state = states[id] else { return nil }
        return LoadedStation(
            record: record, state: state, recentCommands: commands[id] ?? [], party: parties[id] ?? RequestQueue(),
            taste: tastes[id] ?? TasteModel(), lobby: lobbies[id], credibility: standings[id] ?? [:],
            chat: chatSaved(id, limit: ChatRoom.recentLimit))
    }

    // MARK: ChatRepository

    public func saveChat(stationID: StationID, _ change: ChatSave) async throws {
        if let saveFailure { throw saveFailure }
        guard stations[stationID] != nil else { throw StorageError.noSuchStation }
        var room = chats[stationID] ?? ChatRoom.Saved()
        var log = chatLog[stationID] ?? []
        switch change {
        case .post(let message, let purgeBefore, let keep):
            log = Array((log.filter { $0.sentAt >= purgeBefore } + [message]).suffix(keep))
        case .delete(let ids):
            log.removeAll { ids.contains($0.id) }
        case .deleteAllBy(let personID):
            log.removeAll { $0.personID == personID }
        case .clear:
            log = []
        case .mute(let personID, let until):
            room.mutes[personID] = until
        case .unmute(let personID):
            room.mutes[personID] = nil
        case .slowMode(let seconds):
            room.slowModeSeconds = seconds
        }
        chatLog[stationID] = log
        chats[stationID] = room
    }

    private func chatSaved(_ stationID: StationID, limit: Int) -> ChatRoom.Saved {
        var room = chats[stationID] ?? ChatRoom.Saved()
        room.recent = Array((chatLog[stationID] ?? []).suffix(limit))
        return room
    }

    public func chatRoom(stationID: StationID, limit: Int, now: EpochMillis) async throws -> ChatRoom.Saved {
        var room = chatSaved(stationID, limit: limit)
        room.mutes = room.mutes.filter { $0.value > now }
        return room
    }

    public func purgeChat(before instant: EpochMillis) async throws -> Int {
        var purged = 0
        for (station, log) in chatLog {
            let kept = log.filter { $0.sentAt >= instant }
            purged += log.count - kept.count
            chatLog[station] = kept
        }
        return purged
    }

    public func recordReactions(stationID: StationID, _ burst: Reactions.Burst) async throws {
        reactionTotals[stationID, default: [:]][burst.entryID, default: [:]].merge(burst.burst, uniquingKeysWith: +)
    }

    public func reactions(stationID: StationID, entryID: EntryID) async throws -> [String: Int] {
        reactionTotals[stationID]?[entryID] ?? [:]
    }

    public func saveStation(_ save: StationSave) async throws {
        let (state, played, command, party) = (save.state, save.played, save.command, save.party)
        if let saveFailure { throw saveFailure }
        guard stations[state.id] != nil else { throw StorageError.noSuchStation }
        states[state.id] = state
        stations[state.id]?.revision = state.revision
        stations[state.id]?.quietSince = state.quietSince
        stations[state.id]?.pausedAt = state.pausedAt
        plays[state.id, default: []] += played.map { Play(entry: $0, listeners: save.listeners) }
        if let command { commands[state.id, default: []].append(command) }
        if let party { parties[state.id] = party }
        if let lobby = save.lobby { lobbies[state.id] = lobby }
        standings[state.id, default: [:]].merge(save.credibility) { _, new in new }
        if let taste = save.taste {
            var model = tastes[state.id] ?? TasteModel()
            model.apply(taste)
            tastes[state.id] = model
        }
        if let thumb = save.thumb {
            thumbRows[state.id, default: []].removeAll { $0.entryID == thumb.entryID && $0.personID == thumb.personID }
            if thumb.up != nil { thumbRows[state.id, default: []].append(thumb) }
        }
        saveCount += 1
    }

    public func thumbs(stationID: StationID, limit: Int) async throws -> [Thumb] {
        Array((thumbRows[stationID] ?? []).reversed().prefix(limit))
    }

    public func updateParty(stationID: StationID, mode: ProgrammingMode, requestSettings: RequestSettings) async throws
        -> StationRecord?
    {
        stations[stationID]?.mode = mode
        stations[stationID]?.requestSettings = requestSettings
        return stations[stationID]
    }

    public func appliedRevision(stationID: StationID, commandID: String) async throws -> Int64? {
        commands[stationID]?.last { $0.id == commandID }?.revision
    }

    public func pool(stationID: StationID) async throws -> [TrackID] {
        pools[stationID] ?? []
    }

    /// Kept as every store keeps it: each track once, in id order.
    public func setPool(stationID: StationID, trackIDs: [TrackID]) async throws {
        pools[stationID] = Set(trackIDs).sorted()
    }

    public func plays(stationID: StationID, matching search: PlaySearch) async throws -> [Play] {
        let words = search.text?.lowercased().split(separator: " ") ?? []
        return Array(
            (plays[stationID] ?? []).filter { play in
                if let before = search.before, play.entry.start >= before { return false }
                if let from = search.from, play.entry.start < from { return false }
                guard !words.isEmpty else { return true }
                guard let track = trackRows[play.entry.trackID] else { return false }
                let text = "\(track.title) \(track.artist) \(track.album)".lowercased().split(separator: " ")
                return words.allSatisfy { word in text.contains { $0.hasPrefix(word) } }
            }.sorted { $0.entry.start > $1.entry.start }.prefix(search.limit))
    }

    public func play(stationID: StationID, at instant: EpochMillis) async throws -> Play? {
        (plays[stationID] ?? []).filter { $0.entry.start <= instant }.max { $0.entry.start < $1.entry.start }
            .flatMap { $0.entry.expiration > instant ? $0 : nil }
    }

    public func recordAudience(stationID: StationID, minutes new: [ListenerMinute]) async throws {
        for minute in new {
            if let kept = minutes[stationID]?[minute.minute] {
                minutes[stationID]![minute.minute] = kept.merging(minute)
            } else {
                minutes[stationID, default: [:]][minute.minute] = minute
            }
        }
    }

    public func audience(stationID: StationID, from: EpochMillis, to: EpochMillis) async throws -> [ListenerMinute] {
        (minutes[stationID] ?? [:]).values.filter { $0.minute >= from && $0.minute < to }.sorted { $0.minute < $1.minute }
    }

    /// What was saved for a station: its state as storage holds it.
    public func savedState(of id: StationID) -> StationState? {
        states[id]
    }

    // MARK: TrackRepository

    public func track(id: TrackID) async throws -> TrackRecord? {
        trackRows[id]
    }

    public func tracks(ids: [TrackID]) async throws -> [TrackID: TrackRecord] {
        trackRows.filter { ids.contains($0.key) }
    }

    public func search(_ query: String, limit: Int, viewer: String?) async throws -> [TrackRecord] {
        let words = query.lowercased().split(separator: " ")
        return Array(
            visibleTracks(viewer).filter { track in
                let text = "\(track.title) \(track.artist) \(track.album)".lowercased().split(separator: " ")
                return words.allSatisfy { word in text.contains { $0.hasPrefix(word) } }
            }.prefix(limit))
    }

    public func artists(viewer: String?) async throws -> [ArtistSummary] {
        Dictionary(grouping: visibleTracks(viewer), by: \.albumArtist).map { name, tracks in
            ArtistSummary(name: name, albumCount: Set(tracks.map(\.album)).count, trackCount: tracks.count)
        }.sorted { $0.name < $1.name }
    }

    public func albums(artist: String?, viewer: String?) async throws -> [AlbumSummary] {
        let tracks = visibleTracks(viewer).filter { artist == nil || $0.albumArtist == artist }
        return Dictionary(grouping: tracks, by: { "\($0.albumArtist)\u{0}\($0.album)" }).values.map { tracks in
            AlbumSummary(
                title: tracks[0].album, artist: tracks[0].albumArtist, year: tracks[0].year, trackCount: tracks.count,
                artworkTrackID: tracks.first(where: \.hasArtwork)?.id)
        }.sorted { ($0.artist, $0.title) < ($1.artist, $1.title) }
    }

    public func tracks(artist: String?, album: String?, limit: Int, offset: Int, viewer: String?) async throws
        -> [TrackRecord]
    {
        Array(
            visibleTracks(viewer).filter { (artist == nil || $0.albumArtist == artist) && (album == nil || $0.album == album) }
                .dropFirst(offset).prefix(limit))
    }

    public func poolTracks() async throws -> [PoolTrack] {
        sortedTracks.filter { $0.durationMs > 0 }.map {
            PoolTrack(
                id: $0.id, artist: $0.artist, duration: $0.durationMs, album: $0.album, genre: $0.genre, year: $0.year,
                tempo: $0.tempo, onsetRate: $0.onsetRate, loudness: $0.loudness, loudnessRange: $0.loudnessRange,
                privateTo: $0.shared ? nil : $0.uploaderID)
        }
    }

    public func trackCount() async throws -> Int {
        trackRows.count
    }

    private var sortedTracks: [TrackRecord] {
        trackRows.values.sorted { $0.id < $1.id }
    }

    private func visibleTracks(_ viewer: String?) -> [TrackRecord] {
        sortedTracks.filter { $0.isVisible(to: viewer) }
    }
}

extension InMemoryStore: AnalysisRepository {
    public func tracksToAnalyze(limit: Int) async throws -> [TrackRecord] {
        Array(
            trackRows.values.filter { $0.analyzedAt == nil && $0.durationMs > 0 }
                .sorted { ($0.addedAt, $0.id) < ($1.addedAt, $1.id) }.prefix(limit))
    }

    public func saveAnalysis(trackID: TrackID, features: AudioFeatures, at: EpochMillis) async throws {
        trackRows[trackID]?.loudness = features.loudness?.integrated
        trackRows[trackID]?.loudnessRange = features.loudness?.range
        trackRows[trackID]?.truePeak = features.loudness?.truePeak
        trackRows[trackID]?.tempo = features.rhythm?.tempo
        trackRows[trackID]?.onsetRate = features.rhythm?.onsetRate
        trackRows[trackID]?.analyzedAt = at
        printRows[trackID] = features.fingerprint
    }

    public func fingerprints() async throws -> [(TrackID, AudioFingerprint)] {
        printRows.filter { trackRows[$0.key] != nil }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    public func analysisCounts() async throws -> (analyzed: Int, total: Int) {
        let playable = trackRows.values.filter { $0.durationMs > 0 }
        return (playable.count { $0.analyzedAt != nil }, playable.count)
    }
}

extension InMemoryStore: LikesRepository {
    public func like(personID: String, trackID: TrackID, at: EpochMillis, limit: Int) async throws -> Bool {
        if likedRows.contains(where: { $0.person == personID && $0.track == trackID }) { return true }
        guard likedRows.count(where: { $0.person == personID }) < limit else { return false }
        likedRows.append((personID, trackID, at))
        return true
    }

    public func unlike(personID: String, trackID: TrackID) async throws {
        likedRows.removeAll { $0.person == personID && $0.track == trackID }
    }

    /// Newest first; rows keep their insertion order, so a later row of
    /// the same instant is the newer.
    public func likedTracks(personID: String, limit: Int) async throws -> [TrackID] {
        Array(newestFirst.filter { $0.person == personID }.map(\.track).prefix(limit))
    }

    public func coLiked(with seeds: [TrackID], fans: Int, recentPerPerson: Int, limit: Int) async throws
        -> [TrackID: CoLike]
    {
        let seedSet = Set(seeds)
        let fanPairs = newestFirst.filter { seedSet.contains($0.track) }.prefix(fans).map { (person: $0.person, seed: $0.track) }
        var savedBy: [String: [TrackID]] = [:]
        for person in Set(fanPairs.map(\.person)) {
            savedBy[person] = try await likedTracks(personID: person, limit: recentPerPerson)
        }
        let titles = Dictionary(uniqueKeysWithValues: seedSet.compactMap { id in trackRows[id].map { (id, $0.title) } })
        return CoLikeTally.count(fans: fanPairs, savedBy: savedBy, titles: titles, limit: limit)
    }

    private var newestFirst: [(person: String, track: TrackID, at: EpochMillis)] {
        likedRows.enumerated().sorted { ($0.element.at, $0.offset) > ($1.element.at, $1.offset) }.map(\.element)
    }
}
