import Foundation
import WavelengthWire

/// Checks on people's input, each with a clear 400.
enum Validation {
    /// A station's name: 1 to 80 characters, not only spaces, no control
    /// characters. Characters are Unicode code points, counted before the
    /// surrounding spaces are trimmed, as the OpenAPI document's `maxLength`
    /// and `pattern` (`NamePattern`) count them, so the two agree exactly.
    static func stationName(_ raw: String) throws -> String {
        guard let name = name(raw, length: 1...WireLimits.maxNameLength) else {
            throw APIError.badRequest(
                "A station needs a name of 1 to \(WireLimits.maxNameLength) characters, not only spaces, with no control characters.",
                code: .invalidName)
        }
        return name
    }

    /// The trimmed name when `raw` is `length` code points long, has a
    /// character that is not a space and has no control characters.
    private static func name(_ raw: String, length: ClosedRange<Int>) -> String? {
        guard length.contains(raw.unicodeScalars.count),
            !raw.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return nil }
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        return name.isEmpty ? nil : name
    }

    static func handle(_ raw: String) throws -> String {
        let handle = raw.trimmingCharacters(in: .whitespaces).lowercased()
        guard PeopleLimits.handleLength.contains(handle.count),
            handle.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" })
        else {
            throw APIError.badRequest(
                "A handle is \(PeopleLimits.handleLength.lowerBound) to \(PeopleLimits.handleLength.upperBound) letters, digits or _.",
                code: .invalidHandle)
        }
        return handle
    }

    /// A person's display name: as `stationName`, 1 to 40 characters.
    static func displayName(_ raw: String) throws -> String {
        guard let name = name(raw, length: PeopleLimits.displayNameLength) else {
            throw APIError.badRequest(
                "A name is \(PeopleLimits.displayNameLength.lowerBound) to \(PeopleLimits.displayNameLength.upperBound) characters, not only spaces, with no control characters.",
                code: .invalidName)
        }
        return name
    }

    static func password(_ password: String) throws -> String {
        guard PeopleLimits.passwordBytes.contains(password.utf8.count) else {
            throw APIError.badRequest(
                "A password is \(PeopleLimits.passwordBytes.lowerBound) to \(PeopleLimits.passwordBytes.upperBound) bytes long.",
                code: .invalidPassword)
        }
        return password
    }

    static func minutes(_ value: Int?, max: Int, field: String) throws -> Int64? {
        guard let value else { return nil }
        guard (1...max).contains(value) else {
            throw APIError.badRequest("\(field) must be between 1 and \(max) minutes.", code: .invalidExpiry)
        }
        return Int64(value) * 60_000
    }

    /// A person id in a body or path: short and printable.
    static func personID(_ raw: String) throws -> String {
        guard !raw.isEmpty, raw.utf8.count <= WireLimits.maxIDLength,
            raw.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) })
        else { throw APIError.badRequest("That is not a person id.", code: .invalidId) }
        return raw
    }
}
