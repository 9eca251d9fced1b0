import Foundation
import PostgresNIO
import WavelengthCore
import WavelengthStore

extension PostgresStore: PeopleRepository {
    public func createAccount(
        _ person: PersonRecord, station: StationRecord, upgrading: Bool, now: EpochMillis, band: FrequencyBand
    ) async throws -> FrequencyAssignment {
        let draw = frequencyDraw
        do {
            return try await transaction { connection in
                if upgrading {
                    let updated = try await connection.query(
                        """
                        UPDATE person SET kind = \(person.kind.rawValue), handle = \(person.handle),
                            display_name = \(person.displayName), password_hash = \(person.passwordHash)
                        WHERE id = \(person.id) RETURNING 1 AS done
                        """, logger: logger
                    ).first { _ in true } ?? false
                    // As the embedded store: upgrading someone who isn't there is an error, never an insert.
                    guard updated else { throw PersonRows.NotFound(id: person.id) }
                } else {
                    try await PersonRows.insert(person, connection, logger: logger)
                }
                try await connection.query("SELECT pg_advisory_xact_lock(\(Self.frequencyLock))", logger: logger)
                let allocation = try await Self.allocate(connection, now: now, band: band, draw: draw, logger: logger)
                var station = station
                station.frequency = allocation.frequency
                try await Self.insert(station, connection, logger: logger)
                return (station, allocation.reclaimedFrom)
            }
        } catch let error as PSQLError where error.isUniqueViolation && error.serverInfo?[.constraintName] == "person_handle_key" {
            throw StorageError.handleTaken(person.handle ?? "")
        }
    }

    public func insertGuest(_ person: PersonRecord) async throws {
        try await transaction { connection in try await PersonRows.insert(person, connection, logger: logger) }
    }

    public func person(id: String) async throws -> PersonRecord? {
        try await query("SELECT \(unescaped: PersonRows.columns) FROM person WHERE id = \(id)")
            .first(PersonRows.person)
    }

    public func person(handle: String) async throws -> PersonRecord? {
        try await query(
            "SELECT \(unescaped: PersonRows.columns) FROM person WHERE handle = \(handle.lowercased())"
        ).first(PersonRows.person)
    }

    public func searchPeople(prefix: String, limit: Int, guests: Bool) async throws -> [PersonRecord] {
        // LIKE with the wildcards escaped: a prefix of the handle, or of any word of the name.
        let escaped = prefix.lowercased()
            .replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
        let start = escaped + "%"
        let word = "% " + escaped + "%"
        return try await query(
            """
            SELECT \(unescaped: PersonRows.columns) FROM person
            WHERE (kind = 'user' OR \(guests)) AND (handle LIKE \(start) OR lower(display_name) LIKE \(start)
                OR lower(display_name) LIKE \(word) OR (\(guests) AND id = \(prefix)))
            ORDER BY COALESCE(handle LIKE \(start), false) DESC, handle NULLS LAST, id
            LIMIT \(Int64(limit))
            """
        ).all(PersonRows.person)
    }

    public func changePassword(personID: String, hash: String, keepingSession: String?, at: EpochMillis) async throws {
        try await transaction { connection in
            try await connection.query("UPDATE person SET password_hash = \(hash) WHERE id = \(personID)", logger: logger)
            try await connection.query(
                """
                UPDATE auth_session SET revoked_at = \(at)
                WHERE person_id = \(personID) AND revoked_at IS NULL AND id IS DISTINCT FROM \(keepingSession)
                """, logger: logger)
        }
    }

    public func insertSession(_ s: SessionRecord) async throws {
        try await query(
            """
            INSERT INTO auth_session (id, token_hash, person_id, kind, created_at, expires_at, revoked_at)
            VALUES (\(s.id), \(s.tokenHash), \(s.personID), \(s.kind.rawValue), \(s.createdAt), \(s.expiresAt), \(s.revokedAt))
            """)
    }

    public func session(tokenHash: String) async throws -> SessionRecord? {
        try await query(
            "SELECT \(unescaped: PersonRows.sessionColumns) FROM auth_session WHERE token_hash = \(tokenHash)"
        ).first(PersonRows.session)
    }

    public func session(previousTokenHash: String) async throws -> SessionRecord? {
        try await query(
            """
            SELECT \(unescaped: PersonRows.sessionColumns) FROM auth_session
            WHERE previous_token_hash = \(previousTokenHash) LIMIT 1
            """
        ).first(PersonRows.session)
    }

    public func session(id: String) async throws -> SessionRecord? {
        try await query(
            "SELECT \(unescaped: PersonRows.sessionColumns) FROM auth_session WHERE id = \(id)"
        ).first(PersonRows.session)
    }

    public func revokeSession(id: String, at: EpochMillis) async throws {
        try await query(
            "UPDATE auth_session SET revoked_at = \(at) WHERE id = \(id) AND revoked_at IS NULL")
    }

    public func rotateSession(id: String, from oldHash: String, to newHash: String, expiresAt: EpochMillis, at: EpochMillis)
        async throws -> Bool
    {
        // One statement: of two racing refreshes with the same secret, one matches.
        try await query(
            """
            UPDATE auth_session SET previous_token_hash = token_hash, token_hash = \(newHash), expires_at = \(expiresAt)
            WHERE id = \(id) AND token_hash = \(oldHash) AND revoked_at IS NULL AND expires_at > \(at)
            RETURNING 1 AS done
            """
        ).first { _ in true } ?? false
    }

    public func follow(_ followerID: String, _ followeeID: String, at: EpochMillis) async throws {
        try await query(
            """
            INSERT INTO follow (follower_id, followee_id, created_at) VALUES (\(followerID), \(followeeID), \(at))
            ON CONFLICT DO NOTHING
            """)
    }

    public func unfollow(_ followerID: String, _ followeeID: String) async throws {
        try await query(
            "DELETE FROM follow WHERE follower_id = \(followerID) AND followee_id = \(followeeID)")
    }

    public func followers(of personID: String, limit: Int) async throws -> [PersonRecord] {
        try await query(
            """
            SELECT \(unescaped: PersonRows.qualifiedColumns) FROM follow JOIN person ON person.id = follow.follower_id
            WHERE follow.followee_id = \(personID) ORDER BY follow.created_at DESC LIMIT \(Int64(limit))
            """
        ).all(PersonRows.person)
    }

    public func following(of personID: String, limit: Int) async throws -> [PersonRecord] {
        try await query(
            """
            SELECT \(unescaped: PersonRows.qualifiedColumns) FROM follow JOIN person ON person.id = follow.followee_id
            WHERE follow.follower_id = \(personID) ORDER BY follow.created_at DESC LIMIT \(Int64(limit))
            """
        ).all(PersonRows.person)
    }

    public func followCounts(of personID: String) async throws -> (followers: Int, following: Int) {
        try await query(
            """
            SELECT (SELECT count(*) FROM follow WHERE followee_id = \(personID)) AS followers,
                   (SELECT count(*) FROM follow WHERE follower_id = \(personID)) AS following
            """
        ).first { row in
            (followers: Int(try row.value("followers", as: Int64.self)), following: Int(try row.value("following", as: Int64.self)))
        } ?? (0, 0)
    }

    public func isFollowing(_ followerID: String, _ followeeID: String) async throws -> Bool {
        try await query(
            "SELECT 1 AS yes FROM follow WHERE follower_id = \(followerID) AND followee_id = \(followeeID)"
        ).first { _ in true } ?? false
    }

    public func followeeIDs(of personID: String) async throws -> Set<String> {
        Set(
            try await query("SELECT followee_id FROM follow WHERE follower_id = \(personID)")
                .all { try $0.value("followee_id", as: String.self) })
    }

    /// Only the embedded store ever kept server secrets (before they moved
    /// to their own file); a PostgreSQL database never had any.
    public func takeServerSecrets() async throws -> [String: [UInt8]] { [:] }
}

enum PersonRows {
    static let columns = "id, kind, handle, display_name, password_hash, created_at"
    static let qualifiedColumns =
        "person.id, person.kind, person.handle, person.display_name, person.password_hash, person.created_at"
    static let sessionColumns = "id, token_hash, person_id, kind, created_at, expires_at, revoked_at"

    /// An upgrade named a person who isn't stored.
    struct NotFound: Error, CustomStringConvertible {
        var id: String
        var description: String { "No person \(id) to upgrade." }
    }

    static func person(_ row: PostgresRandomAccessRow) throws -> PersonRecord {
        PersonRecord(
            id: try row.value("id"), kind: PersonKind(rawValue: try row.value("kind")) ?? .guest,
            handle: try row.value("handle"), displayName: try row.value("display_name"),
            passwordHash: try row.value("password_hash"), createdAt: try row.value("created_at"))
    }

    static func session(_ row: PostgresRandomAccessRow) throws -> SessionRecord {
        SessionRecord(
            id: try row.value("id"), tokenHash: try row.value("token_hash"), personID: try row.value("person_id"),
            kind: SessionKind(rawValue: try row.value("kind")) ?? .cookie, createdAt: try row.value("created_at"),
            expiresAt: try row.value("expires_at"), revokedAt: try row.value("revoked_at"))
    }

    static func insert(_ p: PersonRecord, _ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query(
            """
            INSERT INTO person (id, kind, handle, display_name, password_hash, created_at)
            VALUES (\(p.id), \(p.kind.rawValue), \(p.handle), \(p.displayName), \(p.passwordHash), \(p.createdAt))
            """, logger: logger)
    }
}
