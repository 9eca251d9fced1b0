/// Short station codes shown as FM frequencies, e.g. "107.3".
///
/// A frequency is a lease, as on a real band: a station holds one while it
/// is on the air or was recently, and the station quiet longest gives its
/// code back when the band is full. Every station keeps a permanent link by
/// id, and gets a fresh code when it next goes on the air. So the band
/// bounds how many stations are *on the air at once* (20,398), not how many
/// exist: a server holds 100,000 stations, most of them quiet.
public enum FrequencyDial {
    /// The FM band's odd-decimal channels, 87.5 … 107.9: the codes that
    /// read most naturally, handed out first.
    public static var band: [String] { FrequencyBand.fm.tiers[0] }

    /// How long a quiet code-protected station keeps its code before the
    /// band may take it back: its guests were told that code.
    public static let codeProtectedHold: EpochMillis = 30 * 24 * 60 * 60 * 1000

    /// Whether a string has the shape of a frequency code: 2–3 digits, a
    /// dot, 1–3 digits.
    public static func isWellFormed(_ code: String) -> Bool {
        guard code.utf8.count <= 7 else { return false }
        let parts = code.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, (2...3).contains(parts[0].count), (1...3).contains(parts[1].count) else { return false }
        return parts.allSatisfy { $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    }
}

/// The codes a server hands out, in tiers it prefers in order.
public struct FrequencyBand: Sendable {
    public let tiers: [[String]]

    public init(tiers: [[String]]) {
        self.tiers = tiers
    }

    /// The FM band, 87.5 to 108 MHz, in four tiers of 20,398 codes:
    /// - the odd tenths 87.5 … 107.9 (103 codes);
    /// - the half channels 87.55 … 107.95 (205);
    /// - the other hundredths, 87.51 … 107.99 (1,640);
    /// - thousandths, 87.501 … 107.999 (18,450).
    ///
    /// No code ends in 0, so "98.30" never shadows "98.3".
    public static let fm = FrequencyBand(tiers: [
        stride(from: 875, through: 1079, by: 2).map { decimal($0, places: 1) },
        stride(from: 8755, through: 10795, by: 10).map { decimal($0, places: 2) },
        (8750...10799).filter { $0 % 10 != 0 && $0 % 10 != 5 }.map { decimal($0, places: 2) },
        (87500...107999).filter { $0 % 10 != 0 }.map { decimal($0, places: 3) },
    ])

    public var count: Int { tiers.reduce(0) { $0 + $1.count } }

    /// Random probes into a large tier before moving on: with 64 probes a
    /// tier that is 90 % taken still answers with odds of 99.9 %.
    public static let probes = 64
    /// Tiers this small are asked about whole.
    static let smallTier = 256
    /// How many codes the last-resort search asks about at a time.
    static let batch = 512

    /// A random free code, preferring earlier tiers, or nil when the band is
    /// (close to) full. `takenAmong` answers which of the codes it is given
    /// are held (one indexed query), and is asked once per tier: a pick
    /// costs four queries at most, however many stations exist.
    public func pick(
        using rng: inout some RandomNumberGenerator, takenAmong: ([String]) throws -> Set<String>
    ) rethrows -> String? {
        for tier in tiers where !tier.isEmpty {
            let candidates =
                tier.count <= Self.smallTier
                ? tier : (0..<Self.probes).map { _ in tier[Int.random(in: 0..<tier.count, using: &rng)] }
            let taken = try takenAmong(candidates)
            if let code = candidates.filter({ !taken.contains($0) }).randomElement(using: &rng) { return code }
        }
        return nil
    }

    /// The first free code of the whole band, in order: the last resort when
    /// probing found nothing and no quiet station can give a code back.
    public func firstFree(takenAmong: ([String]) throws -> Set<String>) rethrows -> String? {
        for tier in tiers {
            var start = 0
            while start < tier.count {
                let chunk = Array(tier[start..<min(start + Self.batch, tier.count)])
                let taken = try takenAmong(chunk)
                if let code = chunk.first(where: { !taken.contains($0) }) { return code }
                start += Self.batch
            }
        }
        return nil
    }

    private static func decimal(_ value: Int, places: Int) -> String {
        var scale = 1
        for _ in 0..<places { scale *= 10 }
        let fraction = String(value % scale)
        return "\(value / scale)." + String(repeating: "0", count: places - fraction.count) + fraction
    }
}
