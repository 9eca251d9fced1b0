/// Parses an HTTP `Range` header for a file of known size (RFC 9110 §14).
///
/// Only single byte ranges are served; they are all players ask for. A
/// header that isn't one (several ranges, another unit, a typo) is
/// `malformed`, which a server may ignore (§14.2) and `FileResponder` does,
/// sending the whole file; only a range past the end is refused (416). A
/// number too large to hold is the end of the file, as a client asking for
/// "everything from here" with a large number means.
enum ByteRange {
    enum Failure: Error, Equatable {
        case malformed
        case unsatisfiable
    }

    /// The inclusive byte range to send, or a failure to answer with 416.
    static func parse(_ header: String, fileSize: Int) -> Result<ClosedRange<Int>, Failure> {
        guard header.utf8.count <= 100, header.hasPrefix("bytes=") else { return .failure(.malformed) }
        let spec = header.dropFirst("bytes=".count).trimmingCharacters(in: " ")
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .failure(.malformed) }
        let first = spec[..<dash]
        let last = spec[spec.index(after: dash)...]
        if first.isEmpty {
            // "bytes=-500": the final 500 bytes.
            guard let suffix = number(last), suffix > 0 else { return .failure(.malformed) }
            guard fileSize > 0 else { return .failure(.unsatisfiable) }
            return .success(max(0, fileSize - suffix)...(fileSize - 1))
        }
        guard let start = number(first), start >= 0 else { return .failure(.malformed) }
        guard start < fileSize else { return .failure(.unsatisfiable) }
        if last.isEmpty { return .success(start...(fileSize - 1)) }
        guard let end = number(last), end >= start else { return .failure(.malformed) }
        return .success(start...min(end, fileSize - 1))
    }

    /// Decimal digits as a count of bytes; more than `Int` holds is `Int.max`.
    private static func number(_ digits: Substring) -> Int? {
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return Int(digits) ?? Int.max
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: Character) -> Substring {
        var result = self
        while result.first == set { result = result.dropFirst() }
        while result.last == set { result = result.dropLast() }
        return result
    }
}
