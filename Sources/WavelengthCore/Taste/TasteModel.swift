import Foundation

/// What a station's room likes, learned online from how it reacts.
///
/// The model is Bayesian probit regression over sparse binary features
/// (a track's id, artist, album, genre and decade), updated one reaction
/// at a time by assumed-density filtering, as in Graepel et al.'s
/// AdPredictor (ICML 2010). Each feature holds a Gaussian belief about its
/// weight; a track's appeal is the sum of its features' weights.
///
/// Why this shape:
/// - it learns from one reaction in closed form, with no batch retraining,
///   so it runs inside the station's event with no I/O;
/// - sparse features generalise: a thumb on one song by an artist moves
///   every song by that artist, so 100 songs teach it about 2,000;
/// - the beliefs carry their own uncertainty, which Thompson sampling
///   (`sample`) turns into exploration: a feature never heard has a wide
///   belief and gets tried, one heard often is trusted.
///
/// The number of features is bounded (`capacity`): past it, the least
/// certain beliefs (the ones closest to the prior) are dropped first.
public struct TasteModel: Sendable, Equatable {
    /// One feature's belief about its weight.
    public struct Belief: Sendable, Equatable, Codable {
        public var mean: Double
        public var variance: Double

        public init(mean: Double, variance: Double) {
            self.mean = mean
            self.variance = variance
        }
    }

    /// Which features changed in one step, for storage to write.
    public struct Change: Sendable, Equatable {
        public var updated: [String: Belief] = [:]
        public var removed: Set<String> = []

        public init(updated: [String: Belief] = [:], removed: Set<String> = []) {
            self.updated = updated
            self.removed = removed
        }

        public var isEmpty: Bool { updated.isEmpty && removed.isEmpty }

        public mutating func merge(_ other: Change) {
            for (feature, belief) in other.updated {
                updated[feature] = belief
                removed.remove(feature)
            }
            for feature in other.removed {
                updated[feature] = nil
                removed.insert(feature)
            }
        }
    }

    /// The prior on every weight: no opinion, and room to learn.
    public static let prior = Belief(mean: 0, variance: 1)
    /// The noise of one reaction: how little one thumb proves.
    static let noise = 1.0
    /// A belief may never become more certain than this, so old evidence
    /// can still be overturned as a room's mood changes.
    static let minimumVariance = 0.02
    public static let capacity = 5000
    /// A learned weight above this counts as liked (for reasons and seeds).
    static let likedThreshold = 0.05

    public private(set) var beliefs: [String: Belief]

    public init(beliefs: [String: Belief] = [:]) {
        self.beliefs = beliefs
    }

    public var isEmpty: Bool { beliefs.isEmpty }

    public func belief(_ feature: String) -> Belief {
        beliefs[feature] ?? Self.prior
    }

    /// Replays a change (as storage does when it keeps a model in memory).
    public mutating func apply(_ change: Change) {
        for feature in change.removed { beliefs[feature] = nil }
        for (feature, belief) in change.updated { beliefs[feature] = belief }
    }

    /// The expected appeal of a track with these features.
    public func appeal(_ features: [String]) -> Double {
        features.reduce(0) { $0 + belief($1).mean }
    }

    /// The room reacted to a track: `signal` says how and how strongly.
    @discardableResult
    public mutating func learn(_ signal: TasteSignal, features: [String]) -> Change {
        guard !features.isEmpty else { return Change() }
        let y: Double = signal.liked ? 1 : -1
        let current = features.map(belief)
        // A weak signal is a noisy one: it moves the beliefs less.
        let totalVariance = Self.noise * Self.noise / signal.strength + current.reduce(0) { $0 + $1.variance }
        let sd = totalVariance.squareRoot()
        let t = y * current.reduce(0) { $0 + $1.mean } / sd
        let (v, w) = Self.truncatedGaussianCorrections(t)
        var change = Change()
        for (feature, old) in zip(features, current) {
            let mean = old.mean + y * old.variance / sd * v
            let variance = max(Self.minimumVariance, old.variance * (1 - old.variance / totalVariance * w))
            let updated = Belief(mean: mean, variance: variance)
            beliefs[feature] = updated
            change.updated[feature] = updated
        }
        change.merge(trim())
        return change
    }

    /// A draw of a track's appeal from the beliefs (Thompson sampling).
    /// `drawn` keeps each feature's draw for one decision, so two tracks by
    /// the same artist are judged with the same idea of that artist.
    public func sample(
        _ features: [String], drawn: inout [String: Double], using rng: inout some RandomNumberGenerator
    ) -> Double {
        var total = 0.0
        for feature in features {
            if let value = drawn[feature] {
                total += value
                continue
            }
            let b = belief(feature)
            let value = b.mean + b.variance.squareRoot() * Self.standardNormal(using: &rng)
            drawn[feature] = value
            total += value
        }
        return total
    }

    /// The feature that most explains why a track appeals: the one with the
    /// largest positive learned weight, if any has been learned.
    public func strongestLiked(_ features: [String]) -> String? {
        features
            .compactMap { feature in beliefs[feature].map { (feature, $0.mean) } }
            .filter { $0.1 > Self.likedThreshold }
            .max { $0.1 < $1.1 }?.0
    }

    /// Drops the least certain beliefs once there are more than `capacity`,
    /// down to nine tenths of it, so the trim runs rarely.
    private mutating func trim() -> Change {
        guard beliefs.count > Self.capacity else { return Change() }
        let excess = beliefs.count - Self.capacity * 9 / 10
        let dropped = beliefs.sorted { a, b in
            a.value.variance != b.value.variance ? a.value.variance > b.value.variance : a.key < b.key
        }.prefix(excess).map(\.key)
        for feature in dropped { beliefs[feature] = nil }
        return Change(removed: Set(dropped))
    }

    /// v(t) = φ(t)/Φ(t) and w(t) = v(t)(v(t) + t), the corrections for a
    /// Gaussian truncated at zero; stable far into the tail.
    static func truncatedGaussianCorrections(_ t: Double) -> (v: Double, w: Double) {
        let cdf = 0.5 * erfc(-t / 2.0.squareRoot())
        let pdf = exp(-t * t / 2) / (2 * Double.pi).squareRoot()
        let v = cdf > 1e-300 ? pdf / cdf : -t
        return (v, min(1, max(0, v * (v + t))))
    }

    /// A standard normal draw (Box–Muller) from the injected generator.
    static func standardNormal(using rng: inout some RandomNumberGenerator) -> Double {
        let u1 = Double.random(in: Double.ulpOfOne..<1, using: &rng)
        let u2 = Double.random(in: 0..<1, using: &rng)
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }
}
