import Foundation

/// What the robot DJ knows about a track: its tags, its measured rhythm and
/// loudness, and the song it is co-liked with, as the sparse features the
/// taste model learns weights for. The track's
/// own id is a feature too, so a song the room loves is liked beyond its
/// artist.
extension PoolTrack {
    public var tasteFeatures: [String] {
        var features = ["track:\(id)"]
        let artist = Self.normalised(artist)
        if !artist.isEmpty {
            features.append("artist:\(artist)")
            let album = Self.normalised(album)
            if !album.isEmpty { features.append("album:\(artist)/\(album)") }
        }
        if let genre = genre.map(Self.normalised), !genre.isEmpty { features.append("genre:\(genre)") }
        if let year, year > 0 { features.append("decade:\(year / 10 * 10)s") }
        if let band = tempo.flatMap(TempoBand.init(bpm:)) { features.append("tempo:\(band.rawValue)") }
        if let pace = onsetRate.flatMap(Pace.init(onsetsPerSecond:)) { features.append("pace:\(pace.rawValue)") }
        if let energy = loudness.flatMap(Energy.init(integratedLufs:)) { features.append("energy:\(energy.rawValue)") }
        if let dynamics = loudnessRange.flatMap(Dynamics.init(rangeLu:)) {
            features.append("dynamics:\(dynamics.rawValue)")
        }
        if let coLike = coLikedWith, coLike.seed != id { features.append("track:\(coLike.seed)") }
        return features
    }

    /// Case and surrounding space don't make a different artist. Long tags
    /// are cut so one feature key stays small.
    static func normalised(_ tag: String) -> String {
        String(tag.trimmingCharacters(in: .whitespacesAndNewlines).lowercased().prefix(80))
    }
}

/// Says why the robot picked a track, in one line a listener reads.
enum PickReason {
    static func explain(_ feature: String?, track: PoolTrack) -> String? {
        guard let feature, let colon = feature.firstIndex(of: ":") else { return nil }
        let kind = feature[..<colon]
        switch kind {
        case "track":
            let liked = feature[feature.index(after: colon)...]
            if liked != track.id, let coLike = track.coLikedWith, coLike.seed == liked {
                return "Because people who like “\(coLike.seedTitle.prefix(80))” like it too"
            }
            return "Because the room liked this song"
        case "artist": return "Because the room liked \(track.artist)"
        case "album": return "Because the room liked \(track.album.isEmpty ? track.artist : track.album)"
        case "genre": return "Because the room liked \(track.genre ?? "this genre")"
        case "decade": return "Because the room liked the \(feature[feature.index(after: colon)...])"
        case "tempo", "pace", "energy", "dynamics":
            return "Because the room liked \(feature[feature.index(after: colon)...]) songs"
        default: return nil
        }
    }
}
