import Crypto
import Foundation

/// Random secrets and their digests. A secret leaves the server once, in
/// its answer; storage keeps only SHA-256.
enum Secrets {
    /// 32 random bytes as unpadded base64url: safe in cookies, URLs and JSON.
    static func token(bytes count: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// A short public id with a prefix: "u…", "g…", "ses…", "inv…".
    static func id(_ prefix: String) -> String {
        prefix + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
    }

    static func hash(_ secret: String) -> String {
        SHA256.hash(data: Data(secret.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
}
