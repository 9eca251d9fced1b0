import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WavelengthCore
import WavelengthWire
@testable import WavelengthServer

/// The background loudness analysis over the test library (real ffmpeg):
/// every playable track gets a gain, and the progress says so.
@Suite("Loudness analysis", .timeLimit(.minutes(5)))
struct LoudnessAnalysisTests {
    @Test func everyPlayableTrackIsMeasuredAndGetsAGain() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let before = try await client.execute(uri: "/api/library/analysis", method: .get).decode(AnalysisProgress.self)
            #expect(before.analyzed == 0)
            #expect(before.total > 0)
            // What the service runs after the scan, run here to its end.
            await server.services.loudness.analyzeAll()
            let after = try await client.execute(uri: "/api/library/analysis", method: .get).decode(AnalysisProgress.self)
            #expect(after.analyzed == after.total)
            #expect(!after.running)
            let tracks = try await client.execute(uri: "/api/library/tracks?limit=500", method: .get)
                .decode([TrackSummary].self)
            let gains = tracks.compactMap(\.gainDb)
            #expect(gains.count == tracks.count, "every demo track is real audio")
            #expect(gains.allSatisfy { (Loudness.cutLimit...Loudness.boostLimit).contains($0) })
            // A second run finds nothing left to do.
            await server.services.loudness.analyzeAll()
            #expect(try await client.execute(uri: "/api/library/analysis", method: .get).decode(AnalysisProgress.self) == after)
        }
    }
}
