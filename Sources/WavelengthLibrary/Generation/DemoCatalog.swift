/// The demo library's contents: four albums by four artists in the browser-playable formats,
/// with Unicode names throughout so that path and tag handling is exercised from day one.
enum DemoCatalog {
    enum Encoding: Sendable {
        case mp3, flac, opus, vorbis, aac

        var fileExtension: String {
            switch self {
            case .mp3: "mp3"
            case .flac: "flac"
            case .opus: "opus"
            case .vorbis: "ogg"
            case .aac: "m4a"
            }
        }

        var codecArguments: [String] {
            switch self {
            case .mp3: ["-c:a", "libmp3lame", "-q:a", "4", "-id3v2_version", "3"]
            case .flac: ["-c:a", "flac", "-sample_fmt", "s16"]
            case .opus: ["-c:a", "libopus", "-b:a", "96k"]
            case .vorbis: ["-c:a", "libvorbis", "-q:a", "4"]
            case .aac: ["-c:a", "aac", "-b:a", "128k"]
            }
        }

        /// FFmpeg 5 cannot embed pictures in Ogg, so those albums get a folder cover instead.
        var canEmbedArt: Bool { self != .opus && self != .vorbis }
    }

    struct Album: Sendable {
        var artist: String
        var title: String
        var year: Int
        var genre: String
        /// Two colours for the generated gradient cover.
        var colors: (String, String)
        var tracks: [Track]
    }

    struct Track: Sendable {
        var title: String
        var seconds: Int
        var encoding: Encoding
        var recipe: ToneRecipe
        var lyrics: String?
    }

    private static let popProgression: [(Int, ToneRecipe.Quality)] = [(0, .major), (7, .major), (9, .minor), (5, .major)]
    private static let sadProgression: [(Int, ToneRecipe.Quality)] = [(9, .minor), (5, .major), (0, .major), (7, .major)]
    private static let minorProgression: [(Int, ToneRecipe.Quality)] = [(0, .minor), (8, .major), (3, .major), (10, .major)]
    private static let doowopProgression: [(Int, ToneRecipe.Quality)] = [(0, .major), (9, .minor), (5, .major), (7, .major)]

    private static func recipe(
        _ rootHz: Double, _ noteSeconds: Double, _ progression: [(Int, ToneRecipe.Quality)],
        _ pattern: [Int], brightness: Double = 0.1, decay: Double = 4
    ) -> ToneRecipe {
        ToneRecipe(
            rootHz: rootHz, noteSeconds: noteSeconds,
            progression: progression.map { (semitones: $0.0, quality: $0.1) },
            pattern: pattern, brightness: brightness, decay: decay
        )
    }

    static let albums: [Album] = [
        Album(
            artist: "Aurora Vale", title: "Café Nocturne", year: 2021, genre: "Ambient",
            colors: ("0xff6f61", "0x6b5b95"),
            tracks: [
                Track(title: "Café Nocturne", seconds: 48, encoding: .mp3,
                      recipe: recipe(261.63, 0.25, popProgression, [0, 1, 2, 3, 4, 3, 2, 1]),
                      lyrics: """
                          [ti:Café Nocturne]
                          [ar:Aurora Vale]
                          [00:02.00]Lights are low in the café
                          [00:10.00]Espresso steam and a slow parade
                          [00:18.00]Les étoiles dansent, the night is young
                          [00:26.00]Every chord a quiet song
                          [00:34.00]Café nocturne, stay a while
                          [00:42.00]Hum along, hum along
                          """),
                Track(title: "Minuit à Montréal", seconds: 36, encoding: .mp3,
                      recipe: recipe(293.66, 0.2, sadProgression, [0, 2, 3, 2, 1, 2, 3, 5], brightness: 0.06, decay: 5)),
            ]
        ),
        Album(
            artist: "Los Ñandúes", title: "Ñandú", year: 2019, genre: "Folk",
            colors: ("0xf7b733", "0x4abdac"),
            tracks: [
                Track(title: "Ñandú", seconds: 55, encoding: .flac,
                      recipe: recipe(220.0, 0.225, doowopProgression, [0, 1, 2, 1, 3, 2, 1, 2], brightness: 0.14, decay: 3)),
                Track(title: "Pampa Señal", seconds: 40, encoding: .flac,
                      recipe: recipe(246.94, 0.25, popProgression, [0, 2, 4, 5, 4, 2, 3, 1], brightness: 0.08)),
            ]
        ),
        Album(
            artist: "星野ミナ", title: "夜明けの街", year: 2023, genre: "City Pop",
            colors: ("0x2e1760", "0xf0a6ca"),
            tracks: [
                Track(title: "夜明けの街", seconds: 62, encoding: .opus,
                      recipe: recipe(329.63, 0.2, minorProgression, [0, 1, 2, 3, 2, 1, 2, 3], brightness: 0.05, decay: 6)),
                Track(title: "さくら通り", seconds: 45, encoding: .vorbis,
                      recipe: recipe(349.23, 0.25, popProgression, [3, 2, 1, 0, 1, 2, 3, 4], brightness: 0.1, decay: 4)),
            ]
        ),
        Album(
            artist: "Nordlys Trio", title: "Fjord Loops", year: 2020, genre: "Electronic",
            colors: ("0x00c9ff", "0x92fe9d"),
            tracks: [
                Track(title: "Fjord Loop", seconds: 72, encoding: .aac,
                      recipe: recipe(196.0, 0.3, sadProgression, [0, 1, 2, 3, 5, 3, 2, 1], brightness: 0.12, decay: 3)),
                Track(title: "Ålesund Drift", seconds: 33, encoding: .aac,
                      recipe: recipe(277.18, 0.2, doowopProgression, [0, 2, 1, 3, 2, 4, 3, 5], brightness: 0.07, decay: 5)),
            ]
        ),
    ]
}
