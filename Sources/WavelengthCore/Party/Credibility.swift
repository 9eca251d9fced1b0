import Foundation

/// How much a person's vote counts in a lobby (seed 004): it follows how the
/// room received the songs they picked or voted for.
///
/// The rule is a Bayesian average: the share of good receptions is
/// estimated as (good + 3) / (all + 6), a Beta(3, 3) prior that starts
/// everyone at one half and moves only as evidence comes in, and the weight is
/// 4^(2·share − 1). So:
/// - with no evidence the weight is 1;
/// - it is never 0 and always within 0.25…4 (`range`);
/// - one thumb moves it a little (1.22× after one up), many move it a lot
///   (2.38× after ten ups, 0.42× after ten downs);
/// - casting votes alone never changes it: only the room's reactions do.
///
/// A skip of a song counts as two thumbs down: leaving a song is a strong
/// "no".
public struct Credibility: Sendable, Equatable, Codable {
    public private(set) var thumbsUp: Int
    public private(set) var thumbsDown: Int
    public private(set) var skips: Int

    public static let range: ClosedRange<Double> = 0.25...4
    static let priorGood = 3.0
    static let priorAll = 6.0
    static let skipWeight = 2.0

    public init(thumbsUp: Int = 0, thumbsDown: Int = 0, skips: Int = 0) {
        self.thumbsUp = thumbsUp
        self.thumbsDown = thumbsDown
        self.skips = skips
    }

    public enum Reaction: Sendable, Equatable {
        case thumbUp, thumbDown, skipped
    }

    /// The room reacted to a song this person picked or voted for.
    public mutating func record(_ reaction: Reaction) {
        switch reaction {
        case .thumbUp: thumbsUp += 1
        case .thumbDown: thumbsDown += 1
        case .skipped: skips += 1
        }
    }

    /// The estimated share of good receptions (0.5 with no evidence).
    public var share: Double {
        let good = Double(thumbsUp)
        let bad = Double(thumbsDown) + Self.skipWeight * Double(skips)
        return (good + Self.priorGood) / (good + bad + Self.priorAll)
    }

    /// How much this person's vote counts: 1 with no evidence, 0.25…4.
    public var weight: Double {
        min(Self.range.upperBound, max(Self.range.lowerBound, pow(4, 2 * share - 1)))
    }

    /// One line a person reads about their own weight.
    public var explanation: String {
        let reactions = thumbsUp + thumbsDown + skips
        guard reactions > 0 else { return "Your vote counts 1×: the room hasn't reacted to your picks yet." }
        var parts = ["\(thumbsUp) 👍", "\(thumbsDown) 👎"]
        if skips > 0 { parts.append("\(skips) skipped") }
        return "Your vote counts \(String(format: "%.2f", weight))×: your picks got \(parts.joined(separator: ", "))."
    }
}
