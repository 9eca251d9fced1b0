import Logging
import PostgresNIO
import WavelengthCore

/// The PostgreSQL schema, one migration after another, each applied once in
/// its own transaction and recorded in `schema_migration`.
///
/// Nodes that start together take turns: the transaction holds an advisory
/// lock first, so only one applies a migration and the others find it done.
/// A node older than the schema (a newer version is recorded, one this build
/// doesn't know) refuses to start rather than write in a shape it doesn't
/// understand.
enum PostgresMigrations {
    struct Migration {
        var version: Int
        var name: String
        var statements: [String]
    }

    static let all: [Migration] = [
        Migration(
            version: 1, name: "health",
            statements: [
                // The row `/health` writes to show that storage takes writes.
                "CREATE TABLE health_probe (id INTEGER PRIMARY KEY, checked_at BIGINT NOT NULL)"
            ]),
        Migration(
            version: 2, name: "stations: timelines, history, commands, the party, the lobby, taste, chat",
            statements: [
                """
                CREATE TABLE station (
                    id TEXT PRIMARY KEY, name TEXT NOT NULL, owner TEXT NOT NULL, owner_id TEXT, owner_key_hash TEXT,
                    frequency TEXT UNIQUE, code_expires_at BIGINT, access_code TEXT, visibility TEXT NOT NULL,
                    max_listeners BIGINT, personal BOOLEAN NOT NULL, revision BIGINT NOT NULL, quiet_since BIGINT,
                    created_at BIGINT NOT NULL, paused_at BIGINT, mode TEXT NOT NULL, request_settings TEXT)
                """,
                // The band's quietest holder, and the dial's two lists, by index.
                "CREATE INDEX station_reclaim ON station (quiet_since) WHERE frequency IS NOT NULL",
                "CREATE INDEX station_listing ON station (visibility, quiet_since)",
                "CREATE INDEX station_owner ON station (owner_id)",
                """
                CREATE TABLE timeline_entry (
                    station_id TEXT NOT NULL REFERENCES station ON DELETE CASCADE, position BIGINT NOT NULL,
                    id TEXT NOT NULL, track_id TEXT NOT NULL, start_at BIGINT NOT NULL, duration BIGINT NOT NULL,
                    start_offset BIGINT NOT NULL, source TEXT NOT NULL, why TEXT, PRIMARY KEY (station_id, position))
                """,
                """
                CREATE TABLE play (
                    seq BIGSERIAL PRIMARY KEY, station_id TEXT NOT NULL REFERENCES station ON DELETE CASCADE,
                    entry_id TEXT NOT NULL, track_id TEXT NOT NULL, start_at BIGINT NOT NULL, duration BIGINT NOT NULL,
                    start_offset BIGINT NOT NULL, source TEXT NOT NULL, listeners BIGINT, why TEXT)
                """,
                "CREATE INDEX play_by_station ON play (station_id, start_at)",
                """
                CREATE TABLE applied_command (
                    station_id TEXT NOT NULL REFERENCES station ON DELETE CASCADE, command_id TEXT NOT NULL,
                    revision BIGINT NOT NULL, applied_at BIGINT NOT NULL, PRIMARY KEY (station_id, command_id))
                """,
                "CREATE INDEX applied_command_by_revision ON applied_command (station_id, revision)",
                """
                CREATE TABLE station_pool (
                    station_id TEXT NOT NULL REFERENCES station ON DELETE CASCADE, track_id TEXT NOT NULL,
                    PRIMARY KEY (station_id, track_id))
                """,
                "CREATE TABLE station_party (station_id TEXT PRIMARY KEY REFERENCES station ON DELETE CASCADE, queue TEXT NOT NULL)",
                "CREATE TABLE station_lobby (station_id TEXT PRIMARY KEY REFERENCES station ON DELETE CASCADE, saved TEXT NOT NULL)",
                """
                CREATE TABLE thumb (
                    station_id TEXT NOT NULL REFERENCES station ON DELETE CASCADE, entry_id TEXT NOT NULL,
                    person_id TEXT NOT NULL, track_id TEXT NOT NULL, up BOOLEAN NOT NULL, at BIGINT NOT NULL,
                    PRIMARY KEY (station_id, entry_id, person_id))
                """,
                "CREATE INDEX thumb_by_time ON thumb (station_id, at)",
                """
                CREATE TABLE taste_belief (
                    station_id TEXT NOT NULL REFERENCES station ON DELETE CASCADE, feature TEXT NOT NULL,
                    mean DOUBLE PRECISION NOT NULL, variance DOUBLE PRECISION NOT NULL, PRIMARY KEY (station_id, feature))
                """,
                """
                CREATE TABLE credibility (
                    station_id TEXT NOT NULL REFERENCES station ON DELETE CASCADE, person_id TEXT NOT NULL,
                    thumbs_up BIGINT NOT NULL, thumbs_down BIGINT NOT NULL, skips BIGINT NOT NULL,
                    PRIMARY KEY (station_id, person_id))
                """,
                """
                CREATE TABLE listener_minute (
                    station_id TEXT NOT NULL REFERENCES station ON DELETE CASCADE, minute BIGINT NOT NULL,
                    peak BIGINT NOT NULL, listener_millis BIGINT NOT NULL, departures BIGINT NOT NULL,
                    stay_millis BIGINT NOT NULL, PRIMARY KEY (station_id, minute))
                """,
                """
                CREATE TABLE chat_message (
                    id TEXT PRIMARY KEY, seq BIGSERIAL, station_id TEXT NOT NULL REFERENCES station ON DELETE CASCADE,
                    person_id TEXT NOT NULL, name TEXT NOT NULL, handle TEXT, text TEXT NOT NULL, sent_at BIGINT NOT NULL)
                """,
                "CREATE INDEX chat_message_by_station ON chat_message (station_id, sent_at)",
                "CREATE INDEX chat_message_by_author ON chat_message (station_id, person_id)",
                "CREATE INDEX chat_message_by_sent_at ON chat_message (sent_at)",
                """
                CREATE TABLE chat_mute (
                    station_id TEXT NOT NULL REFERENCES station ON DELETE CASCADE, person_id TEXT NOT NULL,
                    until BIGINT NOT NULL, PRIMARY KEY (station_id, person_id))
                """,
                """
                CREATE TABLE chat_setting (
                    station_id TEXT PRIMARY KEY REFERENCES station ON DELETE CASCADE, slow_mode_seconds BIGINT NOT NULL)
                """,
                """
                CREATE TABLE play_reaction (
                    station_id TEXT NOT NULL REFERENCES station ON DELETE CASCADE, entry_id TEXT NOT NULL,
                    track_id TEXT NOT NULL, emoji TEXT NOT NULL, count BIGINT NOT NULL,
                    PRIMARY KEY (station_id, entry_id, emoji))
                """,
            ]),
        Migration(
            version: 3, name: "guessing lockouts, stream keys, link tokens",
            statements: [
                """
                CREATE TABLE attempt_lockout (
                    limiter TEXT NOT NULL, key TEXT NOT NULL, locked_until BIGINT NOT NULL, level BIGINT NOT NULL,
                    last_failure BIGINT NOT NULL, PRIMARY KEY (limiter, key))
                """,
                "CREATE INDEX attempt_lockout_by_end ON attempt_lockout (locked_until)",
                // A person's key and tokens (migration 8 points them at `person`).
                """
                CREATE TABLE stream_key (
                    person_id TEXT PRIMARY KEY, hash TEXT NOT NULL UNIQUE, created_at BIGINT NOT NULL)
                """,
                """
                CREATE TABLE link_token (
                    hash TEXT PRIMARY KEY, seq BIGSERIAL, station_id TEXT NOT NULL REFERENCES station ON DELETE CASCADE,
                    person_id TEXT NOT NULL, purpose TEXT NOT NULL, created_at BIGINT NOT NULL)
                """,
                "CREATE INDEX link_token_by_holder ON link_token (station_id, person_id, purpose)",
            ]),
        Migration(
            version: 4, name: "shows and reminders",
            statements: [
                """
                CREATE TABLE show (
                    id TEXT PRIMARY KEY, station_id TEXT NOT NULL REFERENCES station ON DELETE CASCADE,
                    spec TEXT NOT NULL, updated_at BIGINT NOT NULL)
                """,
                "CREATE INDEX show_by_station ON show (station_id)",
                """
                CREATE TABLE show_reminder (
                    person_id TEXT NOT NULL, show_id TEXT NOT NULL REFERENCES show ON DELETE CASCADE,
                    lead_minutes BIGINT NOT NULL, created_at BIGINT NOT NULL, PRIMARY KEY (person_id, show_id))
                """,
            ]),
        Migration(
            version: 5, name: "voice clips",
            statements: [
                """
                CREATE TABLE voice_clip (
                    id TEXT PRIMARY KEY, seq BIGSERIAL, station_id TEXT NOT NULL REFERENCES station ON DELETE CASCADE,
                    person_id TEXT NOT NULL, name TEXT NOT NULL, note TEXT NOT NULL, duration_ms BIGINT NOT NULL,
                    bytes BIGINT NOT NULL, status TEXT NOT NULL, created_at BIGINT NOT NULL)
                """,
                "CREATE INDEX voice_clip_by_station ON voice_clip (station_id, created_at)",
            ]),
        Migration(
            version: 6, name: "the library index and its analysis",
            statements: [
                """
                CREATE TABLE track (
                    id TEXT PRIMARY KEY, path TEXT NOT NULL UNIQUE, size BIGINT NOT NULL, mtime_ns BIGINT NOT NULL,
                    fingerprint TEXT NOT NULL, title TEXT NOT NULL, artist TEXT NOT NULL, album TEXT NOT NULL,
                    album_artist TEXT NOT NULL, track_number BIGINT, disc_number BIGINT, year BIGINT, genre TEXT,
                    duration_ms BIGINT NOT NULL, isrc TEXT, musicbrainz_recording_id TEXT, format TEXT NOT NULL,
                    codec TEXT NOT NULL, has_embedded_art BOOLEAN NOT NULL, artwork_path TEXT, lyrics_path TEXT,
                    added_at BIGINT NOT NULL, loudness DOUBLE PRECISION, loudness_range DOUBLE PRECISION,
                    true_peak DOUBLE PRECISION, tempo DOUBLE PRECISION, onset_rate DOUBLE PRECISION, analyzed_at BIGINT,
                    words_title TEXT NOT NULL, words_artist TEXT NOT NULL, words_album TEXT NOT NULL,
                    words_album_artist TEXT NOT NULL)
                """,
                "CREATE INDEX track_by_fingerprint ON track (fingerprint)",
                "CREATE INDEX track_to_analyze ON track (added_at, id) WHERE analyzed_at IS NULL",
                """
                CREATE TABLE track_fingerprint (
                    track_id TEXT PRIMARY KEY REFERENCES track ON DELETE CASCADE, items BYTEA NOT NULL)
                """,
            ]),
        Migration(
            version: 7, name: "liked songs",
            statements: [
                // No reference to `track`: a like outlives a rescan that
                // misses its file for a while, as in the embedded store.
                """
                CREATE TABLE liked_track (
                    person_id TEXT NOT NULL, track_id TEXT NOT NULL, liked_at BIGINT NOT NULL, seq BIGSERIAL,
                    PRIMARY KEY (person_id, track_id))
                """,
                "CREATE INDEX liked_track_by_track ON liked_track (track_id, liked_at)",
                "CREATE INDEX liked_track_by_person ON liked_track (person_id, liked_at)",
            ]),
        Migration(
            version: 8, name: "people, sessions, follows, station members, bans and invites",
            statements: [
                // The handle is kept lowercased; guests have none (UNIQUE lets NULLs through).
                """
                CREATE TABLE person (
                    id TEXT PRIMARY KEY, kind TEXT NOT NULL, handle TEXT UNIQUE, display_name TEXT NOT NULL,
                    password_hash TEXT, created_at BIGINT NOT NULL)
                """,
                // Prefix search by handle or by any word of the name.
                "CREATE INDEX person_by_name ON person (lower(display_name) text_pattern_ops)",
                """
                CREATE TABLE auth_session (
                    id TEXT PRIMARY KEY, token_hash TEXT NOT NULL UNIQUE, previous_token_hash TEXT,
                    person_id TEXT NOT NULL REFERENCES person ON DELETE CASCADE, kind TEXT NOT NULL,
                    created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL, revoked_at BIGINT)
                """,
                "CREATE INDEX auth_session_by_person ON auth_session (person_id)",
                "CREATE INDEX auth_session_by_previous ON auth_session (previous_token_hash)",
                """
                CREATE TABLE follow (
                    follower_id TEXT NOT NULL REFERENCES person ON DELETE CASCADE,
                    followee_id TEXT NOT NULL REFERENCES person ON DELETE CASCADE,
                    created_at BIGINT NOT NULL, PRIMARY KEY (follower_id, followee_id))
                """,
                "CREATE INDEX follow_by_followee ON follow (followee_id)",
                """
                CREATE TABLE station_member (
                    station_id TEXT NOT NULL REFERENCES station ON DELETE CASCADE,
                    person_id TEXT NOT NULL REFERENCES person ON DELETE CASCADE, role TEXT NOT NULL,
                    joined_at BIGINT NOT NULL, PRIMARY KEY (station_id, person_id))
                """,
                "CREATE INDEX station_member_by_person ON station_member (person_id)",
                """
                CREATE TABLE station_ban (
                    station_id TEXT NOT NULL REFERENCES station ON DELETE CASCADE,
                    person_id TEXT NOT NULL REFERENCES person ON DELETE CASCADE, banned_at BIGINT NOT NULL,
                    PRIMARY KEY (station_id, person_id))
                """,
                """
                CREATE TABLE invite (
                    id TEXT PRIMARY KEY, station_id TEXT NOT NULL REFERENCES station ON DELETE CASCADE,
                    token_hash TEXT NOT NULL UNIQUE, created_by TEXT NOT NULL, created_at BIGINT NOT NULL,
                    expires_at BIGINT, revoked_at BIGINT, uses BIGINT NOT NULL DEFAULT 0)
                """,
                "CREATE INDEX invite_by_station ON invite (station_id, created_at)",
                // What people own and hold now points at them, as in the embedded store.
                "ALTER TABLE station ADD FOREIGN KEY (owner_id) REFERENCES person ON DELETE SET NULL",
                "ALTER TABLE stream_key ADD FOREIGN KEY (person_id) REFERENCES person ON DELETE CASCADE",
                "ALTER TABLE link_token ADD FOREIGN KEY (person_id) REFERENCES person ON DELETE CASCADE",
                "ALTER TABLE show_reminder ADD FOREIGN KEY (person_id) REFERENCES person ON DELETE CASCADE",
                "ALTER TABLE chat_message ADD FOREIGN KEY (person_id) REFERENCES person ON DELETE CASCADE",
                "ALTER TABLE voice_clip ADD FOREIGN KEY (person_id) REFERENCES person ON DELETE CASCADE",
                "ALTER TABLE liked_track ADD FOREIGN KEY (person_id) REFERENCES person ON DELETE CASCADE",
            ]),
        Migration(
            version: 9, name: "nodes and station leases",
            statements: [
                // The nodes of a cluster, each new at every start, with the
                // address the others reach it at and when it was last seen.
                """
                CREATE TABLE node (
                    id TEXT PRIMARY KEY, address TEXT NOT NULL, started_at TIMESTAMPTZ NOT NULL DEFAULT now(),
                    seen_at TIMESTAMPTZ NOT NULL DEFAULT now())
                """,
                // Which node runs a station: expiry on PostgreSQL's clock (the
                // nodes' clocks never decide it), and an epoch that grows with
                // every new holder: the fencing token every save checks.
                """
                CREATE TABLE station_lease (
                    station_id TEXT PRIMARY KEY REFERENCES station ON DELETE CASCADE, node_id TEXT NOT NULL,
                    epoch BIGINT NOT NULL, expires_at TIMESTAMPTZ NOT NULL)
                """,
                "CREATE INDEX station_lease_by_node ON station_lease (node_id)",
            ]),
        Migration(
            version: 10, name: "the cluster's signals",
            statements: [
                // The outbox the nodes tell each other through (see
                // `ClusterSignals`): read in `sequence` order, kept a while.
                """
                CREATE TABLE cluster_signal (
                    sequence BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, kind TEXT NOT NULL,
                    station_id TEXT NOT NULL, person_id TEXT, node_id TEXT NOT NULL,
                    created_at TIMESTAMPTZ NOT NULL DEFAULT now())
                """,
                "CREATE INDEX cluster_signal_by_age ON cluster_signal (created_at)",
            ]),
        Migration(
            version: 11, name: "listeners on each node",
            statements: [
                // Each node's listeners of each station, standing until
                // `expires_at` unless reported again (dropped in 19).
                """
                CREATE TABLE station_presence (
                    station_id TEXT NOT NULL, node_id TEXT NOT NULL, listeners INTEGER NOT NULL,
                    expires_at TIMESTAMPTZ NOT NULL, PRIMARY KEY (station_id, node_id))
                """,
                "CREATE INDEX station_presence_by_node ON station_presence (node_id)",
            ]),
        Migration(
            version: 12, name: "administrators, suspensions and the audit log",
            statements: [
                """
                ALTER TABLE person ADD COLUMN is_administrator BOOLEAN NOT NULL DEFAULT false,
                    ADD COLUMN suspended_at BIGINT, ADD COLUMN suspension_reason TEXT
                """,
                """
                CREATE TABLE audit_entry (
                    id BIGSERIAL PRIMARY KEY, at BIGINT NOT NULL, actor_id TEXT, actor_name TEXT NOT NULL,
                    action TEXT NOT NULL, subject_kind TEXT NOT NULL, subject_id TEXT NOT NULL,
                    subject_name TEXT NOT NULL, reason TEXT NOT NULL)
                """,
            ]),
        Migration(
            version: 13, name: "who may sign up: the registration policy, sign-ups waiting, server invites",
            statements: [
                "ALTER TABLE person ADD COLUMN awaiting_approval_since BIGINT",
                "CREATE INDEX person_awaiting_approval ON person (awaiting_approval_since) WHERE awaiting_approval_since IS NOT NULL",
                "CREATE TABLE server_setting (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
                """
                CREATE TABLE server_invite (
                    id TEXT PRIMARY KEY, code_hash TEXT NOT NULL UNIQUE, created_by TEXT NOT NULL,
                    created_by_name TEXT NOT NULL, created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL,
                    max_uses INTEGER NOT NULL, uses INTEGER NOT NULL DEFAULT 0, revoked_at BIGINT)
                """,
                "CREATE INDEX server_invite_by_maker ON server_invite (created_by, created_at)",
            ]),
        Migration(
            version: 14, name: "password reset links",
            statements: [
                """
                CREATE TABLE password_reset (
                    token_hash TEXT PRIMARY KEY, person_id TEXT NOT NULL REFERENCES person (id) ON DELETE CASCADE,
                    created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL, used_at BIGINT)
                """,
                "CREATE INDEX password_reset_by_person ON password_reset (person_id)",
            ]),
        Migration(
            version: 15, name: "reports and blocks",
            statements: [
                // No foreign keys: a report outlives what it is about, and its reporter.
                """
                CREATE TABLE report (
                    id TEXT PRIMARY KEY, subject TEXT NOT NULL, subject_id TEXT NOT NULL, reason TEXT NOT NULL,
                    note TEXT NOT NULL, reporter_id TEXT NOT NULL, reporter_name TEXT NOT NULL, station_id TEXT,
                    station_name TEXT, reported_person_id TEXT, reported_name TEXT, content TEXT NOT NULL,
                    content_at BIGINT, evidence TEXT, created_at BIGINT NOT NULL, status TEXT NOT NULL,
                    closed_at BIGINT, closed_by_name TEXT, action TEXT, closing_note TEXT)
                """,
                "CREATE INDEX report_by_status ON report (status, created_at)",
                "CREATE INDEX report_by_station ON report (station_id, status, created_at)",
                "CREATE INDEX report_by_reporter ON report (reporter_id, created_at)",
                """
                CREATE TABLE person_block (
                    blocker_id TEXT NOT NULL REFERENCES person ON DELETE CASCADE,
                    blocked_id TEXT NOT NULL REFERENCES person ON DELETE CASCADE,
                    created_at BIGINT NOT NULL, PRIMARY KEY (blocker_id, blocked_id))
                """,
                "CREATE INDEX person_block_blocked ON person_block (blocked_id)",
            ]),
        Migration(
            version: 16, name: "stations hidden from the dial; a person's messages and clips found by person",
            statements: [
                "CREATE TABLE station_hidden (station_id TEXT PRIMARY KEY REFERENCES station ON DELETE CASCADE, hidden_at BIGINT NOT NULL)",
                "CREATE INDEX chat_message_by_person ON chat_message (person_id, sent_at)",
                "CREATE INDEX voice_clip_by_person ON voice_clip (person_id, created_at)",
            ]),
        Migration(
            version: 17, name: "uploads, upload quotas and tag corrections",
            statements: [
                "ALTER TABLE track ADD COLUMN uploader_id TEXT, ADD COLUMN shared BOOLEAN NOT NULL DEFAULT FALSE, ADD COLUMN upload_name TEXT",
                "CREATE INDEX track_by_uploader ON track (uploader_id, added_at)",
                "CREATE TABLE upload_quota (person_id TEXT PRIMARY KEY REFERENCES person ON DELETE CASCADE, bytes BIGINT NOT NULL)",
                """
                CREATE TABLE track_tag_override (
                    track_id TEXT PRIMARY KEY REFERENCES track ON DELETE CASCADE, title TEXT, artist TEXT, album TEXT)
                """,
            ]),
        Migration(
            version: 18, name: "what a co-DJ was before the grant",
            statements: [
                // 'listener', 'none' (revoking removes the row), NULL when not a co-DJ.
                "ALTER TABLE station_member ADD COLUMN before_codj TEXT",
                "UPDATE station_member SET before_codj = 'listener' WHERE role = 'codj'",
            ]),
        Migration(
            version: 19, name: "relayed listeners seated by the station's node",
            statements: [
                // Nodes no longer report their listeners: the node running a
                // station seats every listener, through its feeds.
                "DROP TABLE station_presence"
            ]),
    ]

    /// This build's schema version.
    static var latest: Int { all.map(\.version).max() ?? 0 }

    /// Any number the nodes of one cluster agree on: the lock migrations take turns by.
    static let lockKey: Int64 = 0x5761_7665_6c65  // "Wavele"

    /// Applies what's missing, inside the caller's transaction.
    static func apply(on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.advisoryLock(lockKey, logger: logger)
        try await connection.query(
            """
            CREATE TABLE IF NOT EXISTS schema_migration (
                version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())
            """, logger: logger)
        var current = 0
        for try await (version,) in try await connection.query(
            "SELECT COALESCE(max(version), 0) FROM schema_migration", logger: logger
        ).decode((Int,).self) {
            current = version
        }
        guard current <= latest else {
            throw PostgresSchemaTooNew(found: current, known: latest)
        }
        for migration in all where migration.version > current {
            for statement in migration.statements {
                try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
            try await connection.query(
                "INSERT INTO schema_migration (version, name) VALUES (\(migration.version), \(migration.name))",
                logger: logger)
            logger.info("PostgreSQL: applied migration \(migration.version) (\(migration.name))")
        }
    }
}

/// The database was migrated by a newer Wavelength than this one.
public struct PostgresSchemaTooNew: Error, Equatable, CustomStringConvertible {
    public var found: Int
    public var known: Int

    public var description: String {
        "The database's schema is version \(found), newer than this Wavelength knows (\(known)): "
            + "a newer release migrated it. Upgrade this node to that release; it won't write to a schema it doesn't know."
    }
}
