import Foundation
import WavelengthStore

/// The server's secret keys, kept in their own file
/// (`<data>/keys/signing-keys.json`, 0600 in a 0700 folder) and never in the
/// database, so a copy of the database (a backup, a bug report) lets nobody
/// sign access tokens.
///
/// Rotation (`wavelength keys rotate`) adds a key; tokens are signed with the
/// newest, and the one before it still verifies the tokens already handed out
/// (they live 15 minutes). Older keys are dropped.
public struct SigningKeys: Codable, Equatable, Sendable {
    public struct Key: Codable, Equatable, Sendable {
        /// The JWT `kid`.
        public var id: String
        public var secret: Data
        /// When it was made, ms since 1970.
        public var created: Int64
    }

    /// Oldest first; the last signs.
    public private(set) var jwt: [Key]
    /// The key of the CSRF tokens' HMAC.
    public private(set) var csrf: Data

    /// How many JWT keys verify: the newest and the one before it.
    public static let kept = 2

    public var signing: Key { jwt[jwt.count - 1] }

    public static func path(dataDirectory: String) -> String {
        dataDirectory + "/keys/signing-keys.json"
    }

    /// Fresh keys, or the ones an older version kept in its database
    /// (`jwt-hs256`, `csrf-hmac`), so its sessions survive the upgrade.
    static func make(legacy: [String: [UInt8]], now: Int64) -> SigningKeys {
        let jwt = legacy["jwt-hs256"].map { Key(id: "legacy", secret: Data($0), created: now) }
        return SigningKeys(
            jwt: [jwt ?? newKey(now: now)], csrf: legacy["csrf-hmac"].map { Data($0) } ?? Data(Secrets.randomBytes(32)))
    }

    /// Adds a new signing key; only the newest `kept` remain.
    public mutating func rotate(now: Int64) {
        jwt.append(Self.newKey(now: now))
        jwt.removeFirst(max(0, jwt.count - Self.kept))
    }

    private static func newKey(now: Int64) -> Key {
        Key(id: Secrets.id("k"), secret: Data(Secrets.randomBytes(32)), created: now)
    }

    /// The file's keys; nil when there is no file yet.
    public static func read(dataDirectory: String) throws -> SigningKeys? {
        let path = path(dataDirectory: dataDirectory)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let keys = try JSONDecoder().decode(SigningKeys.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        guard !keys.jwt.isEmpty else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: path]) }
        return keys
    }

    /// Writes the file whole (a temporary file, then a rename), 0600.
    public func write(dataDirectory: String) throws {
        let folder = dataDirectory + "/keys"
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let path = Self.path(dataDirectory: dataDirectory)
        let temporary = path + ".partial"
        guard
            FileManager.default.createFile(
                atPath: temporary, contents: try JSONEncoder().encode(self), attributes: [.posixPermissions: 0o600])
        else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary]) }
        guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
    }

    /// The keys from the file, made (from the database's old copies, or
    /// fresh) when there is none. Any copy left in the database is deleted.
    static func load(dataDirectory: String, people: any PeopleRepository, now: Int64) async throws -> SigningKeys {
        let legacy = try await people.takeServerSecrets()
        if let keys = try read(dataDirectory: dataDirectory) { return keys }
        let keys = make(legacy: legacy, now: now)
        try keys.write(dataDirectory: dataDirectory)
        return keys
    }
}
