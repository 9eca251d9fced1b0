/// A room of simulated listeners with hidden tastes, for measuring how well
/// a robot DJ learns (`wavelength-bench dj`, and the core tests).
///
/// The library is generated: artists each have a genre and a decade, and
/// their tracks an album, a quality, and a measured tempo and onset rate.
/// Each listener's appeal for a track is the room's shared taste for its
/// genre, decade, tempo band and pace plus their own taste for its artist,
/// the track's quality and noise. A listener thumbs up a
/// track they like, and thumbs down or wants to skip one they dislike; most
/// reactions go unsaid, as in a real room.
public struct RoomSimulation: Sendable {
    public struct Shape: Sendable {
        public var tracks: Int
        public var artists: Int
        public var genres: Int
        public var listeners: Int

        public init(tracks: Int = 2000, artists: Int = 200, genres: Int = 16, listeners: Int = 6) {
            self.tracks = tracks
            self.artists = artists
            self.genres = genres
            self.listeners = listeners
        }
    }

    /// What one song got from the room.
    public struct Reception: Sendable, Equatable {
        public var thumbsUp = 0
        public var thumbsDown = 0
        /// Whether enough of the room wanted it gone for it to be skipped.
        public var skipped = false
    }

    public let library: [PoolTrack]
    /// Each track's popularity beyond this room (the "most popular" baseline).
    public let popularity: [TrackID: Double]
    public let listeners: Int
    private let genreTaste: [String: Double]
    private let decadeTaste: [Int: Double]
    private let tempoTaste: [TempoBand: Double]
    private let paceTaste: [Pace: Double]
    private let artistTaste: [[String: Double]]
    private let quality: [TrackID: Double]

    public init(shape: Shape = Shape(), using rng: inout some RandomNumberGenerator) {
        let genres = (0..<shape.genres).map { "Genre \($0)" }
        let decades = [1960, 1970, 1980, 1990, 2000, 2010, 2020]
        var library: [PoolTrack] = []
        var quality: [TrackID: Double] = [:]
        var popularity: [TrackID: Double] = [:]
        // The wider world's taste, which the popular baseline follows.
        let worldGenre = Dictionary(uniqueKeysWithValues: genres.map { ($0, TasteModel.standardNormal(using: &rng)) })
        let artists = (0..<max(1, shape.artists)).map { index in
            (name: "Artist \(index)", genre: genres.randomElement(using: &rng)!, decade: decades.randomElement(using: &rng)!)
        }
        for index in 0..<shape.tracks {
            let artist = artists[index % artists.count]
            let id = "sim\(index)"
            let album = "\(artist.name) LP \(index / artists.count % 2 + 1)"
            library.append(
                PoolTrack(
                    id: id, artist: artist.name, duration: 180_000, album: album, genre: artist.genre,
                    year: artist.decade + Int.random(in: 0..<10, using: &rng),
                    tempo: Double.random(in: 60..<180, using: &rng), onsetRate: Double.random(in: 0.5..<6, using: &rng)))
            let q = 0.5 * TasteModel.standardNormal(using: &rng)
            quality[id] = q
            popularity[id] = q + worldGenre[artist.genre]!
        }
        self.library = library
        self.quality = quality
        self.popularity = popularity
        self.listeners = shape.listeners
        genreTaste = Dictionary(uniqueKeysWithValues: genres.map { ($0, TasteModel.standardNormal(using: &rng)) })
        decadeTaste = Dictionary(
            uniqueKeysWithValues: decades.map { ($0, 0.5 * TasteModel.standardNormal(using: &rng)) })
        tempoTaste = Dictionary(
            uniqueKeysWithValues: TempoBand.allCases.map { ($0, 0.5 * TasteModel.standardNormal(using: &rng)) })
        paceTaste = Dictionary(
            uniqueKeysWithValues: Pace.allCases.map { ($0, 0.3 * TasteModel.standardNormal(using: &rng)) })
        artistTaste = (0..<shape.listeners).map { _ in
            Dictionary(uniqueKeysWithValues: artists.map { ($0.name, 0.5 * TasteModel.standardNormal(using: &rng)) })
        }
    }

    /// How the room receives one play of `track`.
    public func play(_ track: PoolTrack, using rng: inout some RandomNumberGenerator) -> Reception {
        var reception = Reception()
        var wantSkip = 0
        let rhythm = (track.tempo.flatMap(TempoBand.init(bpm:)).flatMap { tempoTaste[$0] } ?? 0)
            + (track.onsetRate.flatMap(Pace.init(onsetsPerSecond:)).flatMap { paceTaste[$0] } ?? 0)
        let shared = genreTaste[track.genre ?? ""] ?? 0
            + (decadeTaste[(track.year ?? 0) / 10 * 10] ?? 0) + rhythm + (quality[track.id] ?? 0)
        for listener in 0..<listeners {
            let appeal = shared + (artistTaste[listener][track.artist] ?? 0)
                + 0.5 * TasteModel.standardNormal(using: &rng)
            let speaks = Double.random(in: 0..<1, using: &rng)
            if appeal > 1 {
                if speaks < 0.7 { reception.thumbsUp += 1 }
            } else if appeal < -0.5 {
                if speaks < 0.4 { reception.thumbsDown += 1 } else if speaks < 0.6 { wantSkip += 1 }
            }
        }
        reception.skipped = wantSkip * 3 >= listeners
        return reception
    }
}

/// Plays a simulated room for a number of songs with one way of picking,
/// and counts thumbs up per window of songs.
public enum DJTrial {
    public enum Picker: String, Sendable, CaseIterable {
        /// The robot DJ as the server runs it: it learns from every reaction.
        case learning
        /// Uniformly random among the allowed tracks.
        case random
        /// The most popular allowed track in the wider world.
        case popular
    }

    public struct Result: Sendable {
        /// Thumbs up per listener per song, for each window of `window` songs.
        public var upRates: [Double]
        public var distinctTracks: Int
        public var distinctArtists: Int
    }

    public static func run(
        _ picker: Picker, room: RoomSimulation, songs: Int, window: Int, robot: RobotDJ = RobotDJ(),
        using rng: inout some RandomNumberGenerator
    ) -> Result {
        var taste = TasteModel()
        var recent: [TrackID] = []
        var lastArtist: String?
        var ups = [Int](repeating: 0, count: (songs + window - 1) / window)
        var played: Set<TrackID> = []
        var artists: Set<String> = []
        let byPopularity = room.library.sorted { room.popularity[$0.id]! > room.popularity[$1.id]! }
        for song in 0..<songs {
            let pick: PoolTrack?
            switch picker {
            case .learning:
                pick = robot.choose(from: room.library, recent: recent, lastArtist: lastArtist, taste: taste, using: &rng)?
                    .track
            case .random:
                pick = robot.pick(from: room.library, recent: recent, lastArtist: lastArtist, using: &rng)
            case .popular:
                let allowed = Set(robot.candidates(from: room.library, recent: recent, lastArtist: lastArtist).map(\.id))
                pick = byPopularity.first { allowed.contains($0.id) }
            }
            guard let track = pick else { break }
            let reception = room.play(track, using: &rng)
            ups[song / window] += reception.thumbsUp
            played.insert(track.id)
            artists.insert(track.artist)
            recent.append(track.id)
            lastArtist = track.artist
            guard picker == .learning else { continue }
            let features = track.tasteFeatures
            for _ in 0..<reception.thumbsUp { taste.learn(.thumbUp, features: features) }
            for _ in 0..<reception.thumbsDown { taste.learn(.thumbDown, features: features) }
            taste.learn(reception.skipped ? .skipped : .completed, features: features)
        }
        let rates = ups.enumerated().map { index, count in
            let songsInWindow = min(window, songs - index * window)
            return Double(count) / Double(songsInWindow * room.listeners)
        }
        return Result(upRates: rates, distinctTracks: played.count, distinctArtists: artists.count)
    }
}
