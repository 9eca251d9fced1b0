import PostgresNIO
import WavelengthCore
import WavelengthStore

extension PostgresStore: StationAccessRepository {
    public func access(stationID: StationID, personID: String, ownerID: String?) async throws -> StoredAccess {
        try await query(
            """
            SELECT (SELECT role FROM station_member WHERE station_id = \(stationID) AND person_id = \(personID)) AS role,
                   EXISTS (SELECT 1 FROM station_ban WHERE station_id = \(stationID) AND person_id = \(personID)) AS banned,
                   EXISTS (SELECT 1 FROM follow WHERE follower_id = \(personID) AND followee_id = \(ownerID)) AS follows
            """
        ).first { row in
            StoredAccess(
                memberRole: try row.value("role", as: String?.self).flatMap(StationRole.init(rawValue:)),
                banned: try row.value("banned"), followsOwner: try row.value("follows"))
        } ?? StoredAccess(memberRole: nil, banned: false, followsOwner: false)
    }

    public func join(stationID: StationID, personID: String, at: EpochMillis) async throws {
        try await query(
            """
            INSERT INTO station_member (station_id, person_id, role, joined_at)
            VALUES (\(stationID), \(personID), \(StationRole.listener.rawValue), \(at)) ON CONFLICT DO NOTHING
            """)
    }

    public func setMemberRole(stationID: StationID, personID: String, role: StationRole, at: EpochMillis) async throws {
        try await query(
            """
            INSERT INTO station_member (station_id, person_id, role, joined_at, before_codj)
            VALUES (\(stationID), \(personID), \(role.rawValue), \(at), CASE WHEN \(role.rawValue) = 'codj' THEN 'none' END)
            ON CONFLICT (station_id, person_id) DO UPDATE SET
                before_codj = CASE WHEN EXCLUDED.role <> 'codj' THEN NULL
                    WHEN station_member.role = 'codj' THEN station_member.before_codj ELSE station_member.role END,
                role = EXCLUDED.role
            """)
    }

    public func revokeCoDJ(stationID: StationID, personID: String) async throws {
        // One statement, so it is one transaction: a stranger's row goes,
        // a member goes back to listening.
        try await query(
            """
            WITH gone AS (
                DELETE FROM station_member
                WHERE station_id = \(stationID) AND person_id = \(personID) AND role = 'codj' AND before_codj = 'none'
                RETURNING person_id)
            UPDATE station_member SET role = \(StationRole.listener.rawValue), before_codj = NULL
            WHERE station_id = \(stationID) AND person_id = \(personID) AND role = \(StationRole.codj.rawValue)
              AND NOT EXISTS (SELECT 1 FROM gone)
            """)
    }

    public func leave(stationID: StationID, personID: String) async throws {
        try await query(
            "DELETE FROM station_member WHERE station_id = \(stationID) AND person_id = \(personID)")
    }

    public func dropListeners(stationID: StationID) async throws {
        try await query(
            "DELETE FROM station_member WHERE station_id = \(stationID) AND role = \(StationRole.listener.rawValue)")
    }

    public func ban(stationID: StationID, personID: String, at: EpochMillis) async throws {
        try await transaction { connection in
            try await connection.query(
                "DELETE FROM station_member WHERE station_id = \(stationID) AND person_id = \(personID)", logger: logger)
            try await connection.query(
                """
                INSERT INTO station_ban (station_id, person_id, banned_at) VALUES (\(stationID), \(personID), \(at))
                ON CONFLICT DO NOTHING
                """, logger: logger)
        }
    }

    public func unban(stationID: StationID, personID: String) async throws {
        try await query(
            "DELETE FROM station_ban WHERE station_id = \(stationID) AND person_id = \(personID)")
    }

    public func memberships(stationID: StationID) async throws -> [Membership] {
        try await query(
            """
            SELECT \(unescaped: PersonRows.qualifiedColumns), m.role AS member_role, (b.person_id IS NOT NULL) AS banned
            FROM person
            LEFT JOIN station_member m ON m.person_id = person.id AND m.station_id = \(stationID)
            LEFT JOIN station_ban b ON b.person_id = person.id AND b.station_id = \(stationID)
            WHERE m.person_id IS NOT NULL OR b.person_id IS NOT NULL
            ORDER BY person.display_name
            LIMIT 1000
            """
        ).all { row in
            Membership(
                person: try PersonRows.person(row),
                role: try row.value("member_role", as: String?.self).flatMap(StationRole.init(rawValue:)),
                banned: try row.value("banned"))
        }
    }

    public func people(ids: [String]) async throws -> [String: PersonRecord] {
        guard !ids.isEmpty else { return [:] }
        let found = try await query(
            "SELECT \(unescaped: PersonRows.columns) FROM person WHERE id = ANY(\(Array(Set(ids))))"
        ).all(PersonRows.person)
        return Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    }

    public func stations(ownedBy personIDs: Set<String>) async throws -> [StationRecord] {
        guard !personIDs.isEmpty else { return [] }
        return try await query(
            """
            SELECT \(unescaped: StationRows.columns) FROM station WHERE owner_id = ANY(\(Array(personIDs)))
            ORDER BY created_at, id
            """
        ).all(StationRows.station)
    }

    public func stations(coDJ personID: String) async throws -> [StationRecord] {
        try await query(
            """
            SELECT \(unescaped: StationRows.qualifiedColumns) FROM station
            JOIN station_member m ON m.station_id = station.id
            WHERE m.person_id = \(personID) AND m.role = \(StationRole.codj.rawValue) ORDER BY station.created_at, station.id
            """
        ).all(StationRows.station)
    }

    public func updateStation(id: StationID, name: String, visibility: StationVisibility, maxListeners: Int?)
        async throws -> StationRecord?
    {
        try await query(
            """
            UPDATE station SET name = \(name), visibility = \(visibility.rawValue),
                max_listeners = \(maxListeners.map(Int64.init)) WHERE id = \(id)
            RETURNING \(unescaped: StationRows.columns)
            """
        ).first(StationRows.station)
    }

    public func assignCode(
        stationID: StationID, accessCode: String?, expiresAt: EpochMillis?, now: EpochMillis, band: FrequencyBand
    ) async throws -> FrequencyAssignment {
        let draw = frequencyDraw
        return try await transaction { connection in
            try await connection.advisoryLock(Self.frequencyLock, logger: logger)
            guard
                try await connection.query("SELECT 1 AS here FROM station WHERE id = \(stationID)", logger: logger)
                    .first({ _ in true }) != nil
            else { throw StorageError.noSuchStation }
            // The old code stays held while the new one is picked, so it
            // can't come straight back; then it is let go.
            let allocation = try await Self.allocate(connection, now: now, band: band, draw: draw, logger: logger)
            let record = try await connection.query(
                """
                UPDATE station SET frequency = \(allocation.frequency), access_code = \(accessCode),
                    code_expires_at = \(expiresAt) WHERE id = \(stationID)
                RETURNING \(unescaped: StationRows.columns)
                """, logger: logger
            ).first(StationRows.station)
            guard let record else { throw StorageError.noSuchStation }
            return (record, allocation.reclaimedFrom == stationID ? nil : allocation.reclaimedFrom)
        }
    }

    public func setAccessCode(stationID: StationID, accessCode: String) async throws -> StationRecord? {
        try await query(
            """
            UPDATE station SET access_code = \(accessCode) WHERE id = \(stationID)
            RETURNING \(unescaped: StationRows.columns)
            """
        ).first(StationRows.station)
    }

    public func releaseCode(stationID: StationID) async throws {
        try await query(
            "UPDATE station SET frequency = NULL, access_code = NULL, code_expires_at = NULL WHERE id = \(stationID)")
    }

    public func claim(stationID: StationID, keyHash: String, ownerID: String, ownerName: String) async throws
        -> StationRecord?
    {
        try await transaction { connection in
            // The row stays locked from the check to the change: a key claims once.
            guard
                let stored = try await connection.query(
                    "SELECT owner_key_hash FROM station WHERE id = \(stationID) FOR UPDATE", logger: logger
                ).first({ try $0.value("owner_key_hash", as: String?.self) }) ?? nil,
                ConstantTime.equal(stored, keyHash)
            else { return nil }
            return try await connection.query(
                """
                UPDATE station SET owner_id = \(ownerID), owner = \(ownerName), owner_key_hash = NULL WHERE id = \(stationID)
                RETURNING \(unescaped: StationRows.columns)
                """, logger: logger
            ).first(StationRows.station)
        }
    }

    public func insertInvite(_ i: InviteRecord) async throws {
        try await query(
            """
            INSERT INTO invite (id, station_id, token_hash, created_by, created_at, expires_at, revoked_at, uses)
            VALUES (\(i.id), \(i.stationID), \(i.tokenHash), \(i.createdBy), \(i.createdAt), \(i.expiresAt), \(i.revokedAt),
                \(Int64(i.uses)))
            """)
    }

    public func invite(tokenHash: String) async throws -> InviteRecord? {
        try await query(
            "SELECT \(unescaped: InviteRows.columns) FROM invite WHERE token_hash = \(tokenHash)"
        ).first(InviteRows.invite)
    }

    public func invites(stationID: StationID) async throws -> [InviteRecord] {
        try await query(
            """
            SELECT \(unescaped: InviteRows.columns) FROM invite WHERE station_id = \(stationID)
            ORDER BY created_at DESC LIMIT 200
            """
        ).all(InviteRows.invite)
    }

    public func revokeInvite(id: String, stationID: StationID, at: EpochMillis) async throws -> Bool {
        try await query(
            """
            UPDATE invite SET revoked_at = \(at) WHERE id = \(id) AND station_id = \(stationID) AND revoked_at IS NULL
            RETURNING 1 AS done
            """
        ).first { _ in true } ?? false
    }

    public func countInviteUse(id: String) async throws {
        try await query("UPDATE invite SET uses = uses + 1 WHERE id = \(id)")
    }
}

enum InviteRows {
    static let columns = "id, station_id, token_hash, created_by, created_at, expires_at, revoked_at, uses"

    static func invite(_ row: PostgresRandomAccessRow) throws -> InviteRecord {
        InviteRecord(
            id: try row.value("id"), stationID: try row.value("station_id"), tokenHash: try row.value("token_hash"),
            createdBy: try row.value("created_by"), createdAt: try row.value("created_at"),
            expiresAt: try row.value("expires_at"), revokedAt: try row.value("revoked_at"),
            uses: Int(try row.value("uses", as: Int64.self)))
    }
}
