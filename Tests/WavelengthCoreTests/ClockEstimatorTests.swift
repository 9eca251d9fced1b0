import Testing
@testable import WavelengthCore

/// A simulated client whose clock is off by `offset` ms and runs `skew` fast,
/// talking to the server over a link with the given one-way delays.
struct SimulatedLink {
    var offset: Double  // server − client at true time 0
    var skew: Double  // client runs slow by this fraction relative to the server
    var forward: (inout SeededRandom) -> Double  // client → server ms
    var back: (inout SeededRandom) -> Double  // server → client ms

    /// Client clock reading at true (server) time t.
    func client(at t: Double) -> Double { (t - offset) * (1 - skew) }

    func probe(at t: Double, rng: inout SeededRandom) -> ClockSample {
        let sent = client(at: t)
        let arrive = t + forward(&rng)
        let leave = arrive + 0.05
        let back = leave + self.back(&rng)
        return ClockSample(sent: sent, serverReceived: arrive, serverSent: leave, received: client(at: back))
    }

    /// The estimator's error at true time t: what it thinks the server time is, minus the truth.
    func error(_ estimate: ClockEstimator.Estimate, at t: Double) -> Double {
        estimate.serverTime(at: client(at: t)) - t
    }
}

@Suite("Clock estimator")
struct ClockEstimatorTests {
    @Test func aSingleProbeOnAPerfectLinkIsExact() {
        let sample = ClockSample(sent: 100, serverReceived: 1_000_010, serverSent: 1_000_011, received: 121)
        #expect(sample.roundTrip == 20)
        #expect(sample.offset == 999_900)
    }

    @Test func jitterIsFilteredOnA100msLink() {
        var rng = SeededRandom(seed: 1)
        // 50 ms each way ± up to 30 ms of queueing, +37 ms offset, 50 ppm skew.
        let link = SimulatedLink(
            offset: 37, skew: 50e-6,
            forward: { 50 + Double.random(in: 0...30, using: &$0) },
            back: { 50 + Double.random(in: 0...30, using: &$0) })
        var estimator = ClockEstimator()
        var t = 1_000_000.0
        var errors: [Double] = []
        let start = t
        // A burst of 8 probes 100 ms apart, then one a second; judged once 10 s have passed.
        for step in 0..<70 {
            estimator.add(link.probe(at: t, rng: &rng))
            t += step < 8 ? 100 : 1_000
            if t - start >= 10_000 { errors.append(abs(link.error(estimator.estimate!, at: t))) }
        }
        errors.sort()
        let p95 = errors[Int(Double(errors.count) * 0.95)]
        #expect(p95 < 5, "p95 \(p95)")
        #expect(estimator.estimate!.bestRoundTrip < 110)
    }

    @Test func aSkewedClockStaysWithinAMillisecondOnAQuietLink() {
        var rng = SeededRandom(seed: 2)
        let link = SimulatedLink(
            offset: -250, skew: 50e-6,
            forward: { 0.1 + Double.random(in: 0...0.2, using: &$0) },
            back: { 0.1 + Double.random(in: 0...0.2, using: &$0) })
        var estimator = ClockEstimator()
        var t = 0.0
        var worst = 0.0
        for step in 0..<300 {
            estimator.add(link.probe(at: t, rng: &rng))
            t += 2_000
            if step > 5 { worst = max(worst, abs(link.error(estimator.estimate!, at: t))) }
        }
        #expect(worst < 1, "worst \(worst)")
    }

    @Test func anAsymmetricPathBiasesByHalfTheDifference() {
        var rng = SeededRandom(seed: 3)
        let link = SimulatedLink(offset: 10, skew: 0, forward: { _ in 30 }, back: { _ in 20 })
        var estimator = ClockEstimator()
        for i in 0..<10 { estimator.add(link.probe(at: Double(i) * 1000, rng: &rng)) }
        let error = link.error(estimator.estimate!, at: 10_000)
        #expect(abs(error - 5) < 0.1, "error \(error)")  // (30 − 20) / 2, invisible to probes
    }

    @Test func garbageSamplesAreIgnored() {
        var estimator = ClockEstimator()
        estimator.add(ClockSample(sent: 10, serverReceived: 0, serverSent: 0, received: 5))  // negative RTT
        estimator.add(ClockSample(sent: .nan, serverReceived: 0, serverSent: 0, received: 5))
        #expect(estimator.estimate == nil)
    }

    @Test func theWindowIsBounded() {
        var estimator = ClockEstimator(capacity: 8, maxAge: 10_000)
        for i in 0..<100 {
            let t = Double(i) * 500
            estimator.add(ClockSample(sent: t, serverReceived: t + 1, serverSent: t + 1, received: t + 2))
        }
        #expect(estimator.samples.count == 8)
    }

    @Test func slewingMovesSlowlyWhilePlayingAndStepsOtherwise() {
        var clock = SlewedClock(maxSlewRate: 0.0005, stepThreshold: 100)
        clock.update(target: 40, at: 0, playing: false)
        #expect(clock.appliedOffset == 40)
        clock.update(target: 42, at: 1_000, playing: true)
        #expect(clock.appliedOffset == 40.5)  // 0.5 ms per second
        clock.update(target: 42, at: 5_000, playing: true)
        #expect(clock.appliedOffset == 42)
        clock.update(target: 500, at: 5_001, playing: true)
        #expect(clock.appliedOffset == 500)  // too far to slew
        clock.update(target: 10, at: 5_002, playing: false)
        #expect(clock.appliedOffset == 10)
    }
}
