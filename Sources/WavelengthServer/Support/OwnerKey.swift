import Crypto
import Foundation

/// The secret that authorises DJ commands on a station until accounts exist.
///
/// Only its SHA-256 is stored; checks compare digests in constant time.
enum OwnerKey {
    static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return bytes.map { String(format: "%02x", $0) }.joined()
    }

    static func hash(_ key: String) -> String {
        SHA256.hash(data: Data(key.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    static func matches(_ key: String?, hash expected: String) -> Bool {
        guard let key, key.utf8.count <= 256 else { return false }
        let actual = Array(hash(key).utf8)
        let wanted = Array(expected.utf8)
        guard actual.count == wanted.count else { return false }
        return zip(actual, wanted).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
