import WavelengthStore
import GRDB

/// Migration v4: accounts and guests, their sessions, the follow graph, and
/// what a station needs to be private (owner, visibility, codes, members,
/// bans, invites).
enum PeopleSchema {
    static func create(in db: Database) throws {
        try db.create(table: "person") { t in
            t.primaryKey("id", .text)
            t.column("kind", .text).notNull()  // "user" | "guest"
            // Lowercase; NULL for guests. SQLite's UNIQUE lets many NULLs through.
            t.column("handle", .text).unique()
            t.column("displayName", .text).notNull()
            t.column("passwordHash", .text)
            t.column("createdAt", .integer).notNull()
        }
        try db.create(table: "authSession") { t in
            t.primaryKey("id", .text)
            // SHA-256 of the session secret (cookie value or refresh token).
            t.column("tokenHash", .text).notNull().unique()
            t.column("personID", .text).notNull().references("person", onDelete: .cascade).indexed()
            t.column("kind", .text).notNull()  // "cookie" | "bearer"
            t.column("createdAt", .integer).notNull()
            t.column("expiresAt", .integer).notNull()
            t.column("revokedAt", .integer)
        }
        try db.create(table: "follow") { t in
            t.column("followerID", .text).notNull().references("person", onDelete: .cascade)
            t.column("followeeID", .text).notNull().references("person", onDelete: .cascade).indexed()
            t.column("createdAt", .integer).notNull()
            t.primaryKey(["followerID", "followeeID"])
        }

        // The station table is rebuilt: the frequency becomes optional (a
        // quiet station may give its code up), the owner key becomes an
        // optional claim key, and access settings arrive. GRDB runs
        // migrations with foreign keys off, so the children stay put.
        try db.create(table: "station_v4") { t in
            t.primaryKey("id", .text)
            t.column("name", .text).notNull()
            t.column("owner", .text).notNull()
            t.column("ownerID", .text).references("person", onDelete: .setNull).indexed()
            t.column("ownerKeyHash", .text)
            t.column("frequency", .text).unique()
            t.column("codeExpiresAt", .integer)
            t.column("accessCode", .text)
            t.column("visibility", .text).notNull().defaults(to: "public")
            t.column("maxListeners", .integer)
            t.column("personal", .boolean).notNull().defaults(to: false)
            t.column("revision", .integer).notNull()
            t.column("quietSince", .integer)
            t.column("createdAt", .integer).notNull()
            t.column("pausedAt", .integer)
        }
        try db.execute(
            sql: """
                INSERT INTO station_v4 (id, name, owner, ownerKeyHash, frequency, revision, quietSince, createdAt, pausedAt)
                SELECT id, name, owner, ownerKeyHash, frequency, revision, quietSince, createdAt, pausedAt FROM station
                """)
        try db.drop(table: "station")
        try db.rename(table: "station_v4", to: "station")

        try db.create(table: "stationMember") { t in
            t.column("stationID", .text).notNull().references("station", onDelete: .cascade)
            t.column("personID", .text).notNull().references("person", onDelete: .cascade).indexed()
            t.column("role", .text).notNull()  // "listener" | "codj"
            t.column("joinedAt", .integer).notNull()
            t.primaryKey(["stationID", "personID"])
        }
        try db.create(table: "stationBan") { t in
            t.column("stationID", .text).notNull().references("station", onDelete: .cascade)
            t.column("personID", .text).notNull().references("person", onDelete: .cascade)
            t.column("bannedAt", .integer).notNull()
            t.primaryKey(["stationID", "personID"])
        }
        try db.create(table: "invite") { t in
            t.primaryKey("id", .text)
            t.column("stationID", .text).notNull().references("station", onDelete: .cascade).indexed()
            t.column("tokenHash", .text).notNull().unique()
            t.column("createdBy", .text).notNull()
            t.column("createdAt", .integer).notNull()
            t.column("expiresAt", .integer)
            t.column("revokedAt", .integer)
            t.column("uses", .integer).notNull().defaults(to: 0)
        }
        // Server-wide secrets (the JWT signing key), made on first start.
        try db.create(table: "serverSecret") { t in
            t.primaryKey("name", .text)
            t.column("value", .blob).notNull()
        }
    }
}
