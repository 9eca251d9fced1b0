import Foundation
import Hummingbird

/// Reads a URL's query string the way browsers write it
/// (`application/x-www-form-urlencoded`): `+` is a space, `%XX` an escaped
/// byte. Hummingbird's `uri.queryParameters` decodes `%XX` but keeps `+`,
/// so "Fjord+Loops" would be looked up literally; every route that reads a
/// query parameter goes through here instead (see RequestHelpers).
enum FormQuery {
    /// The first value given for `name` in a raw query string (without the
    /// `?`), decoded; nil when it is absent. A key with no `=` reads as "".
    static func value(named name: String, in query: String?) -> String? {
        guard let query, !query.isEmpty else { return nil }
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard decode(parts[0]) == name else { continue }
            return parts.count > 1 ? decode(parts[1]) : ""
        }
        return nil
    }

    /// `+` to space first, then percent escapes, so "%2B" stays a plus. A
    /// malformed escape ("%zz") is kept as it was written.
    static func decode(_ raw: Substring) -> String {
        let spaced = raw.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}

extension Request {
    /// A query parameter, form-decoded (see FormQuery).
    func queryValue(_ name: String) -> String? {
        FormQuery.value(named: name, in: uri.query)
    }
}
