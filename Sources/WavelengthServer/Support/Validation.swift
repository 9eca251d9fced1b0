import Foundation
import WavelengthWire

/// Checks on people's input, each with a clear 400.
enum Validation {
    static func stationName(_ raw: String) throws -> String {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, name.count <= WireLimits.maxNameLength else {
            throw APIError.badRequest(
                "A station needs a name of 1 to \(WireLimits.maxNameLength) characters.", code: .invalidName)
        }
        return name
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

    static func displayName(_ raw: String) throws -> String {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard PeopleLimits.displayNameLength.contains(name.count),
            !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw APIError.badRequest(
                "A name is \(PeopleLimits.displayNameLength.lowerBound) to \(PeopleLimits.displayNameLength.upperBound) characters.",
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
