/// One NTP-style probe of the server clock.
///
/// `sent` and `received` are on the client's monotonic clock; `serverReceived`
/// and `serverSent` are the server's stamps. All in milliseconds, fractional.
public struct ClockSample: Sendable, Equatable {
    public var sent: Double
    public var serverReceived: Double
    public var serverSent: Double
    public var received: Double

    public init(sent: Double, serverReceived: Double, serverSent: Double, received: Double) {
        self.sent = sent
        self.serverReceived = serverReceived
        self.serverSent = serverSent
        self.received = received
    }

    /// Round-trip time spent on the network (the server's hold time removed).
    public var roundTrip: Double { (received - sent) - (serverSent - serverReceived) }

    /// Server clock minus client clock, assuming the two legs take equal time.
    /// An asymmetric path biases this by half the difference, which no probe
    /// can see.
    public var offset: Double { ((serverReceived - sent) + (serverSent - received)) / 2 }

    /// The client instant the sample describes: the middle of the round trip.
    public var midpoint: Double { (sent + received) / 2 }
}

/// Estimates the server clock from probes.
///
/// Network queueing only ever adds delay, so the probes with the smallest
/// round trip carry the least error. As in NTP, a probe's error bound is half
/// its round trip plus its age times the largest plausible skew between two
/// clocks (`maxSkew`): old probes have drifted. The estimator keeps the
/// probes of the last minute and answers the median offset of the quarter
/// with the smallest bounds.
///
/// Skew is handled by that age penalty, not by a fitted slope: in simulation
/// (a 100 ms link with up to 30 ms of jitter each way, +37 ms offset and
/// 50 ppm skew) a fitted slope raised the p95 error from about 4.0 to 5.5 ms,
/// and without the age penalty a quiet link's p95 was 2.4 ms instead of 0.5.
public struct ClockEstimator: Sendable, Equatable {
    public let capacity: Int
    /// Samples older than this (client ms) are dropped from the window.
    public let maxAge: Double
    /// How fast two clocks may drift apart (100 ppm), for aging probes.
    public let maxSkew: Double
    public private(set) var samples: [ClockSample] = []

    public init(capacity: Int = 64, maxAge: Double = 60_000, maxSkew: Double = 100e-6) {
        self.capacity = capacity
        self.maxAge = maxAge
        self.maxSkew = maxSkew
    }

    public struct Estimate: Sendable, Equatable {
        /// Server minus client, in ms.
        public var offset: Double
        /// Smallest round trip in the window: bounds the error of the best probe.
        public var bestRoundTrip: Double
        public var sampleCount: Int

        public func serverTime(at local: Double) -> Double {
            local + offset
        }
    }

    public mutating func add(_ sample: ClockSample) {
        guard sample.roundTrip >= 0, sample.roundTrip.isFinite, sample.offset.isFinite else { return }
        samples.append(sample)
        let newest = sample.received
        samples.removeAll { newest - $0.received > maxAge }
        if samples.count > capacity { samples.removeFirst(samples.count - capacity) }
    }

    /// Forgets everything, e.g. after the network changed.
    public mutating func reset() {
        samples.removeAll()
    }

    public var estimate: Estimate? {
        let best = selectedSamples
        guard !best.isEmpty else { return nil }
        return Estimate(
            offset: Self.median(best.map(\.offset)), bestRoundTrip: samples.map(\.roundTrip).min() ?? 0,
            sampleCount: samples.count)
    }

    /// The probes the estimate is the median of: the quarter of the window
    /// (at least three) with the smallest error bounds, smallest first.
    /// Probes with equal bounds keep their arrival order, as in the web
    /// app's port (web/js/playback/clock.js), which the shared fixture
    /// Tests/Fixtures/clock-estimator.json checks.
    var selectedSamples: [ClockSample] {
        guard let newest = samples.last?.received else { return [] }
        let byBound = samples.indices.sorted { i, j in
            let (a, b) = (errorBound(samples[i], now: newest), errorBound(samples[j], now: newest))
            return a != b ? a < b : i < j
        }
        return byBound.prefix(max(min(3, samples.count), samples.count / 4)).map { samples[$0] }
    }

    /// How wrong a probe can be now: half its round trip, plus drift since.
    func errorBound(_ sample: ClockSample, now: Double) -> Double {
        sample.roundTrip / 2 + (now - sample.midpoint) * maxSkew
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

/// The clock playback follows: the estimator's answer, but once playing,
/// changes are slewed (spread over time) instead of stepped, so a better
/// estimate never makes the music jump.
public struct SlewedClock: Sendable, Equatable {
    /// Largest change of the applied offset per ms of client time (0.5 ms/s).
    public var maxSlewRate: Double
    /// Errors above this are stepped even while playing: slewing would take too long.
    public var stepThreshold: Double
    public private(set) var appliedOffset: Double?
    public private(set) var lastUpdate: Double = 0

    public init(maxSlewRate: Double = 0.0005, stepThreshold: Double = 100) {
        self.maxSlewRate = maxSlewRate
        self.stepThreshold = stepThreshold
    }

    /// Moves the applied offset toward `target`. Steps when not playing or
    /// when the gap is large; otherwise moves at most `maxSlewRate`.
    public mutating func update(target: Double, at local: Double, playing: Bool) {
        defer { lastUpdate = local }
        guard let current = appliedOffset, playing else {
            appliedOffset = target
            return
        }
        let gap = target - current
        if abs(gap) > stepThreshold {
            appliedOffset = target
            return
        }
        let allowed = max(0, local - lastUpdate) * maxSlewRate
        appliedOffset = current + min(max(gap, -allowed), allowed)
    }

    public func serverTime(at local: Double) -> Double? {
        appliedOffset.map { local + $0 }
    }
}
