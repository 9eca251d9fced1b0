import WavelengthCore
import WavelengthStore
import WavelengthWire

/// The server's view of the music library: track lookups for timelines and
/// the robot DJ's pool, cached until the next scan changes the library.
actor LibraryCatalog {
    private let tracks: any TrackRepository
    /// People's liked songs, for co-likes; nil where there are none (tests).
    private let likes: (any LikesRepository)?
    /// Who was on the air in a live entry; nil where there are none (tests).
    private let people: (any PeopleRepository)?
    /// Voice clips, whose entries carry `clip:` ids; nil where there are none.
    private let clips: (any ClipRepository)?
    private var cachedPool: [PoolTrack]?
    private var cachedArtists: [TrackID: String] = [:]

    init(
        tracks: any TrackRepository, likes: (any LikesRepository)? = nil, people: (any PeopleRepository)? = nil,
        clips: (any ClipRepository)? = nil
    ) {
        self.tracks = tracks
        self.clips = clips
        self.likes = likes
        self.people = people
    }

    /// Songs saved by people who saved any of `seeds`, on any station
    /// (`CoLike`), within `CoLikes`' bounds.
    func coLiked(with seeds: [TrackID]) async throws -> [TrackID: CoLike] {
        guard let likes, !seeds.isEmpty else { return [:] }
        return try await likes.coLiked(
            with: seeds, fans: CoLikes.fans, recentPerPerson: CoLikes.recentPerPerson, limit: CoLikes.tracks
        ).filter { $0.value.people >= CoLikes.leastPeople }
    }

    /// The whole library as the robot sees it (the default pool and the fallback).
    func pool() async throws -> [PoolTrack] {
        if let cachedPool { return cachedPool }
        let pool = try await tracks.poolTracks()
        cachedPool = pool
        cachedArtists = Dictionary(pool.map { ($0.id, $0.artist) }, uniquingKeysWith: { first, _ in first })
        return pool
    }

    func artistsByTrack() async throws -> [TrackID: String] {
        _ = try await pool()
        return cachedArtists
    }

    func poolTrack(_ id: TrackID) async throws -> PoolTrack? {
        guard let record = try await tracks.track(id: id) else { return nil }
        return PoolTrack(
            id: record.id, artist: record.artist, duration: record.durationMs, album: record.album,
            genre: record.genre, year: record.year, tempo: record.tempo, onsetRate: record.onsetRate,
            loudness: record.loudness, loudnessRange: record.loudnessRange,
            privateTo: record.isUpload && !record.shared ? record.uploaderID : nil)
    }

    /// Call after a scan so the next fill sees the new library.
    func invalidate() {
        cachedPool = nil
        cachedArtists = [:]
    }

    /// The library's tracks among `ids` that `viewer` may reach
    /// (`TrackRecord.isVisible`): an unshared upload is left out for anyone
    /// but its uploader, as if it did not exist.
    func summaries(for ids: [TrackID], visibleTo viewer: String?) async throws -> [TrackID: TrackSummary] {
        try await tracks.tracks(ids: ids.filter { !$0.hasPrefix(LiveTrack.prefix) && !$0.hasPrefix(ClipTrack.prefix) })
            .filter { $0.value.isVisible(to: viewer) }.mapValues(TrackSummary.init)
    }

    /// Of `ids`, the first that may not play on a station owned by `owner`
    /// (`PoolTrack.mayPlay`): another person's unshared upload.
    func firstUnplayable(_ ids: [TrackID], onStationOf owner: String?) async throws -> TrackID? {
        var unshared: [TrackID: PoolTrack] = [:]
        for track in try await pool() where track.privateTo != nil { unshared[track.id] = track }
        return ids.first { id in unshared[id].map { !$0.mayPlay(onStationOf: owner) } ?? false }
    }

    func summaries(for ids: [TrackID]) async throws -> [TrackID: TrackSummary] {
        var found = try await tracks.tracks(
            ids: ids.filter { !$0.hasPrefix(LiveTrack.prefix) && !$0.hasPrefix(ClipTrack.prefix) }
        ).mapValues(TrackSummary.init)
        for id in Set(ids) {
            if let clipID = ClipTrack.parse(id) {
                if let clip = try await clips?.clip(id: clipID) { found[id] = .clip(clip) }
                continue
            }
            guard let live = LiveTrack.parse(id) else { continue }
            let host = try await people?.person(id: live.personID)?.displayName ?? "A DJ"
            found[id] = .live(id, stationID: live.stationID, host: host)
        }
        return found
    }
}

extension LibraryCatalog {
    /// Plays from history as the wire shows them, each with its track.
    func entryViews(_ plays: [Play]) async throws -> [EntryView] {
        let tracks = try await summaries(for: Array(Set(plays.map(\.entry.trackID))))
        return plays.map { play in
            EntryView(
                entry: play.entry,
                track: tracks[play.entry.trackID] ?? .unavailable(play.entry.trackID, duration: play.entry.duration),
                listeners: play.listeners)
        }
    }
}
