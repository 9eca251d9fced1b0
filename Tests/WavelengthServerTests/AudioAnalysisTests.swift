import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WavelengthCore
import WavelengthWire
@testable import WavelengthServer

/// The background audio analysis over the test library (real ffmpeg and
/// aubio): every playable track gets a gain and a rhythm, the robot's pool
/// learns them, and the progress says so.
@Suite("Audio analysis", .timeLimit(.minutes(5)))
struct AudioAnalysisTests {
    @Test func everyPlayableTrackIsMeasuredAndGetsAGainAndARhythm() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            // The robot's pool, cached before the analysis, has no rhythm yet.
            #expect(try await server.services.catalog.pool().allSatisfy { $0.tempo == nil && $0.onsetRate == nil })
            let before = try await client.execute(uri: "/api/library/analysis", method: .get).decode(AnalysisProgress.self)
            #expect(before.analyzed == 0)
            #expect(before.total > 0)
            // What the service runs after the scan, run here to its end.
            await server.services.analysis.analyzeAll()
            let after = try await client.execute(uri: "/api/library/analysis", method: .get).decode(AnalysisProgress.self)
            #expect(after.analyzed == after.total)
            #expect(!after.running)
            let tracks = try await client.execute(uri: "/api/library/tracks?limit=500", method: .get)
                .decode([TrackSummary].self)
            let gains = tracks.compactMap(\.gainDb)
            #expect(gains.count == tracks.count, "every demo track is real audio")
            #expect(gains.allSatisfy { (Loudness.cutLimit...Loudness.boostLimit).contains($0) })
            // The demo tracks are plucked arpeggios with a steady pulse; aubio
            // trusts the beat it hears in most of them (not in a short one).
            let tempos = tracks.compactMap(\.tempo)
            #expect(tempos.count * 3 >= tracks.count * 2, "\(tracks.map { ($0.title, $0.tempo) })")
            #expect(tempos.allSatisfy { (40...250).contains($0) })
            // The pool the robot picks from was refreshed with what was measured.
            let pool = try await server.services.catalog.pool()
            #expect(pool.allSatisfy { $0.onsetRate != nil })
            #expect(pool.contains { $0.tasteFeatures.contains { $0.hasPrefix("tempo:") } })
            // A second run finds nothing left to do.
            await server.services.analysis.analyzeAll()
            #expect(try await client.execute(uri: "/api/library/analysis", method: .get).decode(AnalysisProgress.self) == after)
        }
    }
}
