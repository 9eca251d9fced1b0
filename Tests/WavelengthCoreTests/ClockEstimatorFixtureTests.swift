import Foundation
import Testing

@testable import WavelengthCore

/// The probe sequences in Tests/Fixtures/clock-estimator.json, with the
/// offsets, round trips, window, selected probes and estimates they must
/// give. The web app's port (web/js/playback/clock.js) is checked against the same
/// file by tests/js/clock.test.js, so the two estimators can't drift apart.
struct ClockFixture: Decodable, Sendable {
    struct Probe: Decodable, Sendable {
        var sent, serverReceived, serverSent, received: Double
        var expect: Expect

        struct Expect: Decodable, Sendable {
            /// nil where the offset isn't finite (JSON has no infinity).
            var offset: Double?
            var roundTrip: Double
            var accepted: Bool
        }

        var sample: ClockSample {
            ClockSample(sent: sent, serverReceived: serverReceived, serverSent: serverSent, received: received)
        }
    }

    struct EstimatorCase: Decodable, Sendable, CustomTestStringConvertible {
        struct Configuration: Decodable, Sendable {
            var capacity: Int?
            var maxAge: Double?
            var maxSkew: Double?
        }

        struct Expect: Decodable, Sendable {
            var window: [Int]
            var selected: [Int]
            var estimate: Estimate?
        }

        struct Estimate: Decodable, Sendable {
            var offset: Double
            var bestRoundTrip: Double
            var sampleCount: Int
        }

        var name: String
        var estimator: Configuration?
        var probes: [Probe]
        var expect: Expect
        var testDescription: String { name }
    }

    struct SlewCase: Decodable, Sendable, CustomTestStringConvertible {
        struct Update: Decodable, Sendable {
            var target, at: Double
            var playing: Bool
            var expectApplied: Double
        }

        var name: String
        var updates: [Update]
        var testDescription: String { name }
    }

    var estimator: [EstimatorCase]
    var slewedClock: [SlewCase]

    /// Read next to this file (#filePath), so no bundle resources are needed.
    static func load(filePath: String = #filePath) throws -> ClockFixture {
        let url = URL(fileURLWithPath: filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/clock-estimator.json")
        return try JSONDecoder().decode(ClockFixture.self, from: Data(contentsOf: url))
    }

    static let cases: ClockFixture = {
        do { return try load() } catch { fatalError("Tests/Fixtures/clock-estimator.json: \(error)") }
    }()
}

private func close(_ a: Double, _ b: Double) -> Bool {
    abs(a - b) <= 1e-9 * max(1, abs(a), abs(b))
}

@Suite("Clock estimator: the fixture shared with the web app")
struct ClockEstimatorFixtureTests {
    @Test(arguments: ClockFixture.cases.estimator)
    func estimatorCase(_ fixture: ClockFixture.EstimatorCase) {
        let configuration = fixture.estimator
        var estimator = ClockEstimator(
            capacity: configuration?.capacity ?? 64, maxAge: configuration?.maxAge ?? 60_000,
            maxSkew: configuration?.maxSkew ?? 100e-6)
        for (index, probe) in fixture.probes.enumerated() {
            let sample = probe.sample
            #expect(close(sample.roundTrip, probe.expect.roundTrip), "probe \(index): round trip \(sample.roundTrip)")
            if let offset = probe.expect.offset {
                #expect(close(sample.offset, offset), "probe \(index): offset \(sample.offset)")
            } else {
                #expect(!sample.offset.isFinite, "probe \(index): offset \(sample.offset)")
            }
            estimator.add(sample)
            // Every probe in the fixture is unique, so a kept one is the newest.
            let kept = estimator.samples.last == sample
            #expect(kept == probe.expect.accepted, "probe \(index): kept \(kept)")
        }
        let samples = fixture.probes.map(\.sample)
        #expect(estimator.samples == fixture.expect.window.map { samples[$0] }, "window")
        #expect(estimator.selectedSamples == fixture.expect.selected.map { samples[$0] }, "selected")
        let estimate = estimator.estimate
        if let expected = fixture.expect.estimate {
            #expect(estimate.map { close($0.offset, expected.offset) } == true, "offset \(String(describing: estimate?.offset))")
            #expect(estimate.map { close($0.bestRoundTrip, expected.bestRoundTrip) } == true, "best round trip")
            #expect(estimate?.sampleCount == expected.sampleCount)
        } else {
            #expect(estimate == nil)
        }
    }

    @Test(arguments: ClockFixture.cases.slewedClock)
    func slewedClockCase(_ fixture: ClockFixture.SlewCase) {
        var clock = SlewedClock()
        for (index, update) in fixture.updates.enumerated() {
            clock.update(target: update.target, at: update.at, playing: update.playing)
            #expect(clock.appliedOffset.map { close($0, update.expectApplied) } == true, "update \(index): \(String(describing: clock.appliedOffset))")
        }
    }
}
