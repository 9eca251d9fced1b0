/// Short station codes shown as FM frequencies, e.g. "107.3".
///
/// The first codes come from the real FM band's odd-decimal channels
/// (87.5 … 107.9), which read naturally; when those run out, finer steps
/// ("98.35") keep codes short and unique.
public enum FrequencyDial {
    public static let band: [String] = stride(from: 875, through: 1079, by: 2).map { format(tenths: $0) }

    static let fineBand: [String] = stride(from: 8750, through: 10795, by: 5)
        .filter { $0 % 10 != 0 }
        .map { "\($0 / 100).\(String(format2: $0 % 100))" }

    /// A random free code, or nil when every code is taken.
    public static func pick(excluding taken: Set<String>, using rng: inout some RandomNumberGenerator) -> String? {
        for candidates in [band, fineBand] {
            let free = candidates.filter { !taken.contains($0) }
            if let code = free.randomElement(using: &rng) { return code }
        }
        return nil
    }

    /// Whether a string has the shape of a frequency code.
    public static func isWellFormed(_ code: String) -> Bool {
        guard code.utf8.count <= 6 else { return false }
        let parts = code.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, (2...3).contains(parts[0].count), (1...2).contains(parts[1].count) else { return false }
        return parts.allSatisfy { $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    }

    private static func format(tenths: Int) -> String {
        "\(tenths / 10).\(tenths % 10)"
    }
}

extension String {
    fileprivate init(format2 value: Int) {
        self = value < 10 ? "0\(value)" : "\(value)"
    }
}
