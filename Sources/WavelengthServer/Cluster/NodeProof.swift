import Crypto
import Foundation
import WavelengthCore

/// How a node shows another that it is one of the cluster when it opens a
/// station's feed: an HMAC, under a key every node shares (derived from the
/// signing keys deploy/ has each node copy), of its id, the station and the
/// minute. A feed's joins name who the relaying node authenticated, so a
/// client that could open one would choose who it is; the proof keeps
/// everyone else out, and a captured one lapses within minutes.
struct NodeProof: Sendable {
    private let key: SymmetricKey

    /// `secret`: the signing keys' CSRF key, a different use of it made
    /// distinct by its label.
    init(secret: Data) {
        key = SymmetricKey(data: HMAC<SHA256>.authenticationCode(for: Data("wavelength node feed".utf8), using: SymmetricKey(data: secret)))
    }

    /// `now`: ms since 1970.
    func make(node: String, station: StationID, now: Int64) -> String {
        Self.hex(mac(node: node, station: station, minute: now / 60_000))
    }

    /// Whether `proof` is `node`'s for `station` made within a minute or two
    /// of `now` (clocks of a cluster's nodes run NTP).
    func accepts(_ proof: String, node: String, station: StationID, now: Int64) -> Bool {
        guard node.utf8.count <= 200, let bytes = Self.bytes(hex: proof), bytes.count == 32 else { return false }
        let minute = now / 60_000
        // Compared in constant time.
        return (minute - 2...minute + 1).contains {
            HMAC<SHA256>.isValidAuthenticationCode(bytes, authenticating: Self.message(node, station, $0), using: key)
        }
    }

    private func mac(node: String, station: StationID, minute: Int64) -> HashedAuthenticationCode<SHA256> {
        HMAC<SHA256>.authenticationCode(for: Self.message(node, station, minute), using: key)
    }

    private static func message(_ node: String, _ station: StationID, _ minute: Int64) -> Data {
        Data("\(node)|\(station)|\(minute)".utf8)
    }

    private static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0, digits.count <= 128 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = Self.nibble(digits[index]), let low = Self.nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    private static func hex(_ mac: HashedAuthenticationCode<SHA256>) -> String {
        mac.map { String(format: "%02x", $0) }.joined()
    }
}
