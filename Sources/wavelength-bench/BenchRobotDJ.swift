import ArgumentParser
import Foundation
import WavelengthCore

/// Simulated rooms with hidden tastes react to three DJs: the learning robot
/// DJ the server runs, uniform random, and the most popular tracks. Prints
/// each DJ's thumbs-up rate per window of songs, averaged over the rooms.
struct BenchRobotDJ: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dj", abstract: "How much more the learning robot DJ is liked than random and most-popular picks.")

    @Option(help: "Tracks in the generated library.")
    var tracks: Int = 2000

    @Option(help: "Songs each DJ plays per room.")
    var songs: Int = 300

    @Option(help: "Songs per reported window.")
    var window: Int = 50

    @Option(help: "Simulated rooms to average over.")
    var rooms: Int = 20

    @Option(help: "Listeners per room.")
    var listeners: Int = 6

    @Option(help: "Seed of the first room.")
    var seed: UInt64 = 1

    func validate() throws {
        guard (100...200_000).contains(tracks), (1...5000).contains(songs), (1...songs).contains(window),
            (1...1000).contains(rooms), (1...1000).contains(listeners)
        else { throw ValidationError("tracks 100…200000, songs 1…5000, window 1…songs, rooms and listeners 1…1000") }
    }

    func run() async throws {
        let windows = (songs + window - 1) / window
        var sums: [DJTrial.Picker: [Double]] = [:]
        var distinct: [DJTrial.Picker: (tracks: Int, artists: Int)] = [:]
        let started = Date()
        for room in 0..<rooms {
            var rng = SeededRandom(seed: seed &+ UInt64(room))
            let simulation = RoomSimulation(
                shape: .init(tracks: tracks, artists: max(1, tracks / 10), listeners: listeners), using: &rng)
            for picker in DJTrial.Picker.allCases {
                var pickRng = SeededRandom(seed: (seed &+ UInt64(room)) &* 31 &+ UInt64(picker.rawValue.count))
                let result = DJTrial.run(picker, room: simulation, songs: songs, window: window, using: &pickRng)
                let previous = sums[picker] ?? [Double](repeating: 0, count: windows)
                sums[picker] = zip(previous, result.upRates).map(+)
                let seen = distinct[picker] ?? (0, 0)
                distinct[picker] = (seen.tracks + result.distinctTracks, seen.artists + result.distinctArtists)
            }
        }
        let elapsed = Date().timeIntervalSince(started)
        print("\(rooms) rooms × \(listeners) listeners, \(tracks) tracks, \(songs) songs per DJ (\(String(format: "%.1f", elapsed)) s)")
        print("thumbs up per listener per song, by window of \(window) songs:")
        let header = (0..<windows).map { "\($0 * window + 1)–\(min(songs, ($0 + 1) * window))" }
        print("  " + "DJ".padding(toLength: 10, withPad: " ", startingAt: 0) + header.map { $0.leftPad(10) }.joined())
        for picker in DJTrial.Picker.allCases {
            let rates = sums[picker]!.map { $0 / Double(rooms) }
            print(
                "  " + picker.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)
                    + rates.map { String(format: "%.3f", $0).leftPad(10) }.joined())
        }
        let learning = sums[.learning]!, random = sums[.random]!, popular = sums[.popular]!
        let ratios = zip(learning, random).map { $1 > 0 ? $0 / $1 : 0 }
        print("  learning ÷ random:  " + ratios.map { String(format: "%.2f×", $0) }.joined(separator: "  "))
        let popularRatios = zip(learning, popular).map { $1 > 0 ? $0 / $1 : 0 }
        print("  learning ÷ popular: " + popularRatios.map { String(format: "%.2f×", $0) }.joined(separator: "  "))
        if songs > 100 {
            // Songs 101 onwards: the target is measured after 100 songs.
            let after = (100 / window)..<windows
            let l = after.map { learning[$0] }.reduce(0, +), r = after.map { random[$0] }.reduce(0, +)
            print("after 100 songs, learning ÷ random = \(String(format: "%.2f", r > 0 ? l / r : 0))× (target ≥ 1.5×)")
        }
        for picker in DJTrial.Picker.allCases {
            let seen = distinct[picker]!
            print(
                "  \(picker.rawValue): \(seen.tracks / rooms) distinct tracks and \(seen.artists / rooms) artists per \(songs) songs")
        }
    }
}

extension String {
    fileprivate func leftPad(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
