import WavelengthStore
import GRDB

extension AppDatabase {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: library, stations, timelines, history") { db in
            try db.create(table: "track") { t in
                t.primaryKey("id", .text)
                t.column("path", .text).notNull().unique()
                t.column("size", .integer).notNull()
                t.column("mtimeNs", .integer).notNull()
                t.column("fingerprint", .text).notNull().indexed()
                t.column("title", .text).notNull()
                t.column("artist", .text).notNull()
                t.column("album", .text).notNull()
                t.column("albumArtist", .text).notNull()
                t.column("trackNumber", .integer)
                t.column("discNumber", .integer)
                t.column("year", .integer)
                t.column("genre", .text)
                t.column("durationMs", .integer).notNull()
                t.column("isrc", .text)
                t.column("musicBrainzRecordingID", .text)
                t.column("format", .text).notNull()
                t.column("codec", .text).notNull()
                t.column("hasEmbeddedArt", .boolean).notNull()
                t.column("artworkPath", .text)
                t.column("lyricsPath", .text)
                t.column("addedAt", .integer).notNull()
            }
            try db.create(index: "track_on_artist_album", on: "track", columns: ["albumArtist", "album"])
            // Find-as-you-type: prefix queries over title, artist and album,
            // case- and diacritic-insensitive, kept in step by triggers.
            try db.create(virtualTable: "track_search", using: FTS5()) { t in
                t.synchronize(withTable: "track")
                t.tokenizer = .unicode61(diacritics: .remove)
                t.prefixes = [1, 2, 3]
                t.column("title")
                t.column("artist")
                t.column("album")
                t.column("albumArtist")
            }

            try db.create(table: "station") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
                t.column("owner", .text).notNull()
                t.column("ownerKeyHash", .text).notNull()
                t.column("frequency", .text).notNull().unique()
                t.column("revision", .integer).notNull()
                t.column("quietSince", .integer)
                t.column("createdAt", .integer).notNull()
            }
            try db.create(table: "timelineEntry") { t in
                t.column("stationID", .text).notNull().references("station", onDelete: .cascade)
                t.column("position", .integer).notNull()
                t.column("id", .text).notNull()
                t.column("trackID", .text).notNull()
                t.column("start", .integer).notNull()
                t.column("duration", .integer).notNull()
                t.column("offset", .integer).notNull()
                t.column("source", .text).notNull()
                t.primaryKey(["stationID", "position"])
            }
            try db.create(table: "play") { t in
                t.autoIncrementedPrimaryKey("seq")
                t.column("stationID", .text).notNull().references("station", onDelete: .cascade)
                t.column("entryID", .text).notNull()
                t.column("trackID", .text).notNull()
                t.column("start", .integer).notNull()
                t.column("duration", .integer).notNull()
                t.column("offset", .integer).notNull()
                t.column("source", .text).notNull()
            }
            try db.create(index: "play_on_station_start", on: "play", columns: ["stationID", "start"])
            try db.create(table: "appliedCommand") { t in
                t.column("stationID", .text).notNull().references("station", onDelete: .cascade)
                t.column("commandID", .text).notNull()
                t.column("revision", .integer).notNull()
                t.column("appliedAt", .integer).notNull()
                t.primaryKey(["stationID", "commandID"])
            }
        }
        migrator.registerMigration("v2: station song pools") { db in
            // No rows for a station means its pool is the whole library.
            try db.create(table: "stationPool") { t in
                t.column("stationID", .text).notNull().references("station", onDelete: .cascade)
                t.column("trackID", .text).notNull()
                t.primaryKey(["stationID", "trackID"])
            }
        }
        migrator.registerMigration("v3: pausing") { db in
            try db.alter(table: "station") { t in
                t.add(column: "pausedAt", .integer)
            }
        }
        migrator.registerMigration("v4: people, sessions, follows, station access, invites") { db in
            try PeopleSchema.create(in: db)
        }
        migrator.registerMigration("v5: indexes for a band and a dial over 100,000 stations") { db in
            // With 100,000 stations, a full band takes its code back from
            // the station quiet longest without reading every row.
            try db.execute(
                sql: "CREATE INDEX station_reclaim ON station(quietSince) WHERE frequency IS NOT NULL")
            // The dial lists public stations, on the air and recently quiet
            // first, without reading them all.
            try db.execute(sql: "CREATE INDEX station_listing ON station(visibility, quietSince)")
        }
        migrator.registerMigration("v6: guessing lockouts survive a restart; a row for /health to write") { db in
            try db.create(table: "healthProbe") { t in
                t.column("id", .integer).primaryKey()
                t.column("checkedAt", .integer).notNull()
            }
            try db.create(table: "attemptLockout") { t in
                t.column("limiter", .text).notNull()
                t.column("key", .text).notNull()
                t.column("lockedUntil", .integer).notNull()
                t.column("level", .integer).notNull()
                t.column("lastFailure", .integer).notNull()
                t.primaryKey(["limiter", "key"])
            }
        }
        migrator.registerMigration("v7: the party: programming mode, request settings, the request queue") { db in
            try db.alter(table: "station") { t in
                t.add(column: "mode", .text).notNull().defaults(to: "dj")
                t.add(column: "requestSettings", .text)
            }
            // One row per station that ever took requests: the queue as JSON
            // (requests, votes, turns, vetoes), bounded by RequestQueue.maxPending.
            try db.create(table: "stationParty") { t in
                t.column("stationID", .text).primaryKey().references("station", onDelete: .cascade)
                t.column("queue", .text).notNull()
            }
            // Thumbs on plays: one per person per play, for the DJ's feedback
            // and for the robot DJ to learn from.
            try db.create(table: "thumb") { t in
                t.column("stationID", .text).notNull().references("station", onDelete: .cascade)
                t.column("entryID", .text).notNull()
                t.column("personID", .text).notNull()
                t.column("trackID", .text).notNull()
                t.column("up", .boolean).notNull()
                t.column("at", .integer).notNull()
                t.primaryKey(["stationID", "entryID", "personID"])
            }
            try db.create(index: "thumb_track", on: "thumb", columns: ["trackID"])
            // Liked songs: a person's saved tracks.
            try db.create(table: "likedTrack") { t in
                t.column("personID", .text).notNull().references("person", onDelete: .cascade)
                t.column("trackID", .text).notNull()
                t.column("likedAt", .integer).notNull()
                t.primaryKey(["personID", "trackID"])
            }
        }
        migrator.registerMigration("v8: the robot DJ learns; the lobby's ballot and credibility; loudness") { db in
            try db.alter(table: "timelineEntry") { t in
                t.add(column: "why", .text)
            }
            // EBU R128 loudness from the background analysis; `analyzedAt`
            // set (with no loudness) when a file couldn't be measured. A
            // scan that rewrites a track's row clears all four.
            try db.alter(table: "track") { t in
                t.add(column: "loudness", .double)
                t.add(column: "loudnessRange", .double)
                t.add(column: "truePeak", .double)
                t.add(column: "analyzedAt", .integer)
            }
            try db.create(index: "track_unanalyzed", on: "track", columns: ["analyzedAt"])
            // One row per feature a station's taste has learned (bounded by
            // TasteModel.capacity); an event writes only the rows it moved.
            try db.create(table: "tasteBelief") { t in
                t.column("stationID", .text).notNull().references("station", onDelete: .cascade)
                t.column("feature", .text).notNull()
                t.column("mean", .double).notNull()
                t.column("variance", .double).notNull()
                t.primaryKey(["stationID", "feature"])
            }
            // The lobby's open ballot with its votes, suggestions and who
            // backed recent winners, as JSON (bounded by LobbyState's limits).
            try db.create(table: "stationLobby") { t in
                t.column("stationID", .text).primaryKey().references("station", onDelete: .cascade)
                t.column("saved", .text).notNull()
            }
            // How much each person's vote counts in a station's lobby.
            try db.create(table: "credibility") { t in
                t.column("stationID", .text).notNull().references("station", onDelete: .cascade)
                t.column("personID", .text).notNull()
                t.column("thumbsUp", .integer).notNull()
                t.column("thumbsDown", .integer).notNull()
                t.column("skips", .integer).notNull()
                t.primaryKey(["stationID", "personID"])
            }
        }
        migrator.registerMigration("v9: each track's tempo and onset rate") { db in
            // aubio's readings, from the same background analysis as the
            // loudness; every track is analysed again to get them.
            try db.alter(table: "track") { t in
                t.add(column: "tempo", .double)
                t.add(column: "onsetRate", .double)
            }
            try db.execute(sql: "UPDATE track SET analyzedAt = NULL")
        }
        migrator.registerMigration("v10: co-likes read liked songs by track and by person, newest first") { db in
            try db.create(index: "likedTrack_byTrack", on: "likedTrack", columns: ["trackID", "likedAt"])
            try db.create(index: "likedTrack_byPerson", on: "likedTrack", columns: ["personID", "likedAt"])
        }
        migrator.registerMigration("v11: listeners per play; the per-minute audience series") { db in
            try db.alter(table: "play") { t in
                t.add(column: "listeners", .integer)
            }
            try db.create(table: "listenerMinute") { t in
                t.column("stationID", .text).notNull().references("station", onDelete: .cascade)
                t.column("minute", .integer).notNull()
                t.column("peak", .integer).notNull()
                t.column("listenerMillis", .integer).notNull()
                t.column("departures", .integer).notNull()
                t.column("stayMillis", .integer).notNull()
                t.primaryKey(["stationID", "minute"])
            }
        }
        migrator.registerMigration("v12: each track's Chromaprint fingerprint") { db in
            try db.create(table: "trackFingerprint") { t in
                t.primaryKey("trackID", .text).references("track", onDelete: .cascade)
                t.column("items", .blob).notNull()
            }
            // Every track is analysed again to get one.
            try db.execute(sql: "UPDATE track SET analyzedAt = NULL")
        }
        migrator.registerMigration("v13: stream links with a token, for players that can't send headers") { db in
            try db.create(table: "streamToken") { t in
                t.primaryKey("hash", .text)
                t.column("stationID", .text).notNull().references("station", onDelete: .cascade)
                t.column("personID", .text).notNull().references("person", onDelete: .cascade)
                t.column("createdAt", .integer).notNull()
                t.column("revokedAt", .integer)
            }
            try db.create(index: "streamToken_byHolder", on: "streamToken", columns: ["stationID", "personID"])
        }
        migrator.registerMigration("v14: shows on the schedule, and the reminders people set for them") { db in
            // A show is kept whole as JSON: its episodes are computed from
            // it, never queried by column, and a new field needs no migration.
            try db.create(table: "show") { t in
                t.primaryKey("id", .text)
                t.column("stationID", .text).notNull().references("station", onDelete: .cascade)
                t.column("spec", .text).notNull()
                t.column("updatedAt", .integer).notNull()
            }
            try db.create(index: "show_byStation", on: "show", columns: ["stationID"])
            try db.create(table: "showReminder") { t in
                t.column("personID", .text).notNull().references("person", onDelete: .cascade)
                t.column("showID", .text).notNull().references("show", onDelete: .cascade)
                t.column("leadMinutes", .integer).notNull()
                t.column("createdAt", .integer).notNull()
                t.primaryKey(["personID", "showID"])
            }
            try db.create(index: "showReminder_byShow", on: "showReminder", columns: ["showID"])
        }
        migrator.registerMigration("v15: personal stream keys for going live from broadcast software") { db in
            try db.create(table: "streamKey") { t in
                t.primaryKey("personID", .text).references("person", onDelete: .cascade)
                t.column("hash", .text).notNull().unique()
                t.column("createdAt", .integer).notNull()
            }
        }
        migrator.registerMigration("v16: a play keeps its one-line note (a live show's title)") { db in
            try db.alter(table: "play") { t in
                t.add(column: "why", .text)
            }
        }
        migrator.registerMigration("v17: the room: chat messages, mutes, slow mode, and each play's reactions") { db in
            try db.create(table: "chatMessage") { t in
                t.primaryKey("id", .text)
                t.column("stationID", .text).notNull().references("station", onDelete: .cascade)
                t.column("personID", .text).notNull().references("person", onDelete: .cascade)
                t.column("name", .text).notNull()
                t.column("handle", .text)
                t.column("text", .text).notNull()
                t.column("sentAt", .integer).notNull()
            }
            try db.create(index: "chatMessage_byStation", on: "chatMessage", columns: ["stationID", "sentAt"])
            try db.create(index: "chatMessage_byAuthor", on: "chatMessage", columns: ["stationID", "personID"])
            try db.create(index: "chatMessage_bySentAt", on: "chatMessage", columns: ["sentAt"])
            try db.create(table: "chatMute") { t in
                t.column("stationID", .text).notNull().references("station", onDelete: .cascade)
                t.column("personID", .text).notNull()
                t.column("until", .integer).notNull()
                t.primaryKey(["stationID", "personID"])
            }
            try db.create(table: "chatSetting") { t in
                t.primaryKey("stationID", .text).references("station", onDelete: .cascade)
                t.column("slowModeSeconds", .integer).notNull()
            }
            try db.create(table: "playReaction") { t in
                t.column("stationID", .text).notNull().references("station", onDelete: .cascade)
                t.column("entryID", .text).notNull()
                t.column("trackID", .text).notNull()
                t.column("emoji", .text).notNull()
                t.column("count", .integer).notNull()
                t.primaryKey(["stationID", "entryID", "emoji"])
            }
        }
        migrator.registerMigration("v18: voice clips between songs") { db in
            try db.create(table: "voiceClip") { t in
                t.primaryKey("id", .text)
                t.column("stationID", .text).notNull().references("station", onDelete: .cascade)
                t.column("personID", .text).notNull().references("person", onDelete: .cascade)
                t.column("name", .text).notNull()
                t.column("note", .text).notNull()
                t.column("durationMs", .integer).notNull()
                t.column("bytes", .integer).notNull()
                t.column("status", .text).notNull()
                t.column("createdAt", .integer).notNull()
            }
            try db.create(index: "voiceClip_byStation", on: "voiceClip", columns: ["stationID", "createdAt"])
        }
        migrator.registerMigration("v19: link tokens for calendar feeds too, beside stream links") { db in
            // The table keeps its name; every token made before this was a stream link.
            try db.alter(table: "streamToken") { t in
                t.add(column: "purpose", .text).notNull().defaults(to: "stream")
            }
            // Revoked tokens are deleted from now on; those kept so far go too.
            try db.execute(sql: "DELETE FROM streamToken WHERE revokedAt IS NOT NULL")
        }
        migrator.registerMigration("v20: a session remembers the refresh token it replaced, so a replay ends it") { db in
            try db.alter(table: "authSession") { t in t.add(column: "previousTokenHash", .text) }
            try db.create(index: "authSession_previousTokenHash", on: "authSession", columns: ["previousTokenHash"])
        }
        migrator.registerMigration("v21: administrators, suspensions and the audit log") { db in
            try db.alter(table: "person") { t in
                t.add(column: "isAdministrator", .boolean).notNull().defaults(to: false)
                t.add(column: "suspendedAt", .integer)
                t.add(column: "suspensionReason", .text)
            }
            try db.create(table: "auditEntry") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("at", .integer).notNull()
                t.column("actorID", .text)
                t.column("actorName", .text).notNull()
                t.column("action", .text).notNull()
                t.column("subjectKind", .text).notNull()
                t.column("subjectID", .text).notNull()
                t.column("subjectName", .text).notNull()
                t.column("reason", .text).notNull()
            }
        }
        migrator.registerMigration("v22: who may sign up: the registration policy, sign-ups waiting, server invites") { db in
            try db.alter(table: "person") { t in t.add(column: "awaitingApprovalSince", .integer) }
            try db.create(index: "person_awaitingApproval", on: "person", columns: ["awaitingApprovalSince"])
            try db.create(table: "serverSetting") { t in
                t.primaryKey("key", .text)
                t.column("value", .text).notNull()
            }
            try db.create(table: "serverInvite") { t in
                t.primaryKey("id", .text)
                t.column("codeHash", .text).notNull().unique()
                t.column("createdBy", .text).notNull()
                t.column("createdByName", .text).notNull()
                t.column("createdAt", .integer).notNull()
                t.column("expiresAt", .integer).notNull()
                t.column("maxUses", .integer).notNull()
                t.column("uses", .integer).notNull().defaults(to: 0)
                t.column("revokedAt", .integer)
            }
            try db.create(index: "serverInvite_byMaker", on: "serverInvite", columns: ["createdBy", "createdAt"])
        }
        migrator.registerMigration("v23: password reset links") { db in
            try db.create(table: "passwordReset") { t in
                t.primaryKey("tokenHash", .text)
                t.column("personID", .text).notNull().indexed().references("person", onDelete: .cascade)
                t.column("createdAt", .integer).notNull()
                t.column("expiresAt", .integer).notNull()
                t.column("usedAt", .integer)
            }
        }
        migrator.registerMigration("v24: reports and blocks") { db in
            // No foreign keys: a report outlives the message, clip, station
            // or person it is about, and its reporter.
            try db.create(table: "report") { t in
                t.primaryKey("id", .text)
                t.column("subject", .text).notNull()
                t.column("subjectID", .text).notNull()
                t.column("reason", .text).notNull()
                t.column("note", .text).notNull()
                t.column("reporterID", .text).notNull()
                t.column("reporterName", .text).notNull()
                t.column("stationID", .text)
                t.column("stationName", .text)
                t.column("reportedPersonID", .text)
                t.column("reportedName", .text)
                t.column("content", .text).notNull()
                t.column("contentAt", .integer)
                t.column("evidence", .text)
                t.column("createdAt", .integer).notNull()
                t.column("status", .text).notNull()
                t.column("closedAt", .integer)
                t.column("closedByName", .text)
                t.column("action", .text)
                t.column("closingNote", .text)
            }
            try db.create(index: "report_byStatus", on: "report", columns: ["status", "createdAt"])
            try db.create(index: "report_byStation", on: "report", columns: ["stationID", "status", "createdAt"])
            try db.create(index: "report_byReporter", on: "report", columns: ["reporterID", "createdAt"])
            try db.create(table: "personBlock") { t in
                t.column("blockerID", .text).notNull().references("person", onDelete: .cascade)
                t.column("blockedID", .text).notNull().references("person", onDelete: .cascade).indexed()
                t.column("createdAt", .integer).notNull()
                t.primaryKey(["blockerID", "blockedID"])
            }
        }
        migrator.registerMigration("v25: stations hidden from the dial; a person's messages and clips found by person") { db in
            // A table of its own, not a station column: the hub saves its
            // record whole, and would write an older value back.
            try db.create(table: "stationHidden") { t in
                t.primaryKey("stationID", .text).references("station", onDelete: .cascade)
                t.column("hiddenAt", .integer).notNull()
            }
            try db.create(index: "chatMessage_byPerson", on: "chatMessage", columns: ["personID", "sentAt"])
            try db.create(index: "voiceClip_byPerson", on: "voiceClip", columns: ["personID", "createdAt"])
        }
        migrator.registerMigration("v26: uploads, upload quotas and tag corrections") { db in
            // No foreign key to person: deleting a person deletes their
            // uploads' rows itself and hands the files back to remove.
            try db.alter(table: "track") { t in
                t.add(column: "uploaderID", .text)
                t.add(column: "shared", .boolean).notNull().defaults(to: false)
                t.add(column: "uploadName", .text)
            }
            try db.create(index: "track_byUploader", on: "track", columns: ["uploaderID", "addedAt"])
            try db.create(table: "uploadQuota") { t in
                t.primaryKey("personID", .text).references("person", onDelete: .cascade)
                t.column("bytes", .integer).notNull()
            }
            try db.create(table: "trackTagOverride") { t in
                t.primaryKey("trackID", .text).references("track", onDelete: .cascade)
                t.column("title", .text)
                t.column("artist", .text)
                t.column("album", .text)
            }
        }
        migrator.registerMigration("v27: what a co-DJ was before the grant") { db in
            // 'listener' (a member), 'none' (a stranger: revoking removes the
            // row), NULL when not a co-DJ. Co-DJs made before this was kept
            // go back to listening, as revoking did then.
            try db.alter(table: "stationMember") { t in t.add(column: "beforeCoDJ", .text) }
            try db.execute(sql: "UPDATE stationMember SET beforeCoDJ = 'listener' WHERE role = 'codj'")
        }
        return migrator
    }
}
