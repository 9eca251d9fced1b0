import Foundation
import Testing
import WavelengthCore
@testable import WavelengthPostgres
@testable import WavelengthSQLite
import WavelengthStore
import WavelengthTestSupport

/// `wavelength migrate-db`: a community made on the embedded store, copied
/// to PostgreSQL, reads back the same through every repository, and the
/// copy goes on working (new rows after the copied ones).
@Suite("Copying a community to PostgreSQL", .enabled(if: PostgresServer.installed != nil, Comment(rawValue: PostgresServer.missing)))
struct MigrateDBTests {
    static let band = FrequencyBand(tiers: [["88.1", "88.3", "88.5", "88.7", "88.9"]])

    /// A small community that touches every table the embedded store keeps.
    static func community(_ db: AppDatabase) async throws {
        let files = (0..<6).map { n in
            LibraryContractTests.file("/m/\(n).mp3", title: "Café Song \(n)", artist: "Artist \(n % 2)", album: "Album \(n % 3)")
        }
        try await db.applyScan(ScanChanges(added: files, updated: [], moved: [], removed: []))
        let tracks = try await db.tracks(artist: nil, album: nil, limit: 10, offset: 0).map(\.id).sorted()
        try await db.saveAnalysis(
            trackID: tracks[0],
            features: AudioFeatures(
                loudness: LoudnessReading(integrated: -9, range: 4, truePeak: -0.5), rhythm: RhythmReading(tempo: 124, onsetRate: 3.5),
                fingerprint: AudioFingerprint(items: [1, 0xFFFF_FFFF, 42])),
            at: 7)

        for (id, handle) in [("ana", "ana"), ("bo", "bo")] {
            _ = try await db.createAccount(
                PersonRecord(id: id, kind: .user, handle: handle, displayName: id.capitalized, passwordHash: "$2b$hash", createdAt: 1),
                station: StationRecord(id: "home-\(id)", name: "\(id)'s", owner: id, ownerID: id, frequency: nil, personal: true, quietSince: 1, createdAt: 1),
                upgrading: false, now: 1, band: band)
        }
        try await db.insertGuest(PersonRecord(id: "guest", kind: .guest, handle: nil, displayName: "Guest", passwordHash: nil, createdAt: 2))
        _ = try await db.insertStation(
            StationRecord(id: "party", name: "Party", owner: "Ana", ownerID: "ana", frequency: nil, visibility: .code, quietSince: nil, createdAt: 3),
            now: 3, band: band, ownerLimit: nil)
        try await db.insertSession(SessionRecord(id: "s1", tokenHash: "t1", personID: "ana", kind: .cookie, createdAt: 1, expiresAt: 9_999))
        try await db.insertSession(SessionRecord(id: "s2", tokenHash: "t2", personID: "bo", kind: .bearer, createdAt: 1, expiresAt: 9_999))
        _ = try await db.rotateSession(id: "s2", from: "t2", to: "t3", expiresAt: 10_000, at: 5)
        try await db.follow("bo", "ana", at: 4)
        try await db.follow("guest", "ana", at: 5)
        try await db.setMemberRole(stationID: "party", personID: "bo", role: .codj, at: 6)
        try await db.join(stationID: "party", personID: "guest", at: 6)
        try await db.ban(stationID: "home-ana", personID: "guest", at: 7)
        try await db.insertInvite(InviteRecord(id: "i1", stationID: "party", tokenHash: "inv", createdBy: "ana", createdAt: 8, expiresAt: nil))
        _ = try await db.setAdministrator(
            handle: "ana", true,
            audit: AuditEntry(
                at: 9, actorID: nil, actorName: "the host's shell", action: "grant-admin", subjectKind: "person", subjectID: "ana",
                subjectName: "Ana", reason: "runs the place"))
        _ = try await db.suspend(
            personID: "guest", reason: "spam",
            audit: AuditEntry(
                at: 9, actorID: "ana", actorName: "Ana", action: "suspend", subjectKind: "person", subjectID: "guest",
                subjectName: "Guest", reason: "spam"))
        // Who may sign up: the mode, one waiting, one server invite.
        try await db.setRegistrationPolicy(
            RegistrationPolicy(mode: .approval, membersMayInvite: true),
            audit: AuditEntry(
                at: 9, actorID: "ana", actorName: "Ana", action: "set-registration", subjectKind: "server",
                subjectID: "registration", subjectName: "sign-ups", reason: "opening up"))
        try await db.insertWaitingSignup(
            PersonRecord(id: "cy", kind: .user, handle: "cy", displayName: "Cy", passwordHash: "h", createdAt: 9), limit: 10)
        try await db.insertServerInvite(
            ServerInviteRecord(
                id: "si1", codeHash: "code", createdBy: "ana", createdByName: "Ana", createdAt: 9, expiresAt: 99_999, maxUses: 5,
                uses: 1), limit: 10, audit: nil)
        _ = try await db.issuePasswordReset(
            tokenHash: "reset", personID: "bo", expiresAt: 99_999,
            audit: AuditEntry(
                at: 9, actorID: "ana", actorName: "Ana", action: "password-reset", subjectKind: "person", subjectID: "bo",
                subjectName: "Bo", reason: "lost it"))

        // A station with a timeline, history, commands, a party, a lobby, taste and thumbs.
        var state = StationState(id: "party", quietSince: nil)
        var rng = SeededRandom(seed: 3)
        let pool = tracks.map { PoolTrack(id: $0, artist: "A", duration: 60_000) }
        _ = state.fill(at: 0, robot: RobotDJ(), pool: pool, fallback: [], artistOf: { _ in nil }, using: &rng)
        var played: [TimelineEntry] = []
        for n in 0..<3 {
            let outcome = try state.apply(.skip(entryID: nil), at: 10 + Int64(n), track: { _ in nil }, using: &rng)
            played += outcome.played
            try await db.saveStation(state, played: outcome.played, command: AppliedCommand(id: "c\(n)", revision: state.revision, appliedAt: 10))
        }
        var save = StationSave(state: state, played: [], command: nil)
        save.credibility = ["bo": Credibility(thumbsUp: 3, thumbsDown: 1, skips: 0)]
        var taste = TasteModel()
        save.taste = taste.learn(.thumbUp, features: ["artist:a"])
        save.thumb = Thumb(entryID: played[0].id, trackID: played[0].trackID, personID: "bo", up: true, at: 20)
        var queue = RequestQueue()
        _ = try queue.request(
            RequestQueue.Candidate(trackID: tracks[4], durationMs: 60_000), id: "r1", by: "guest", named: "Guest", at: 21,
            settings: RequestSettings(), recentPlays: [])
        save.party = queue
        save.lobby = LobbyState(credibility: [:]).saved
        try await db.saveStation(save)
        try await db.setPool(stationID: "party", trackIDs: Array(tracks.prefix(3)))
        _ = try await db.updateParty(stationID: "party", mode: .requests, requestSettings: RequestSettings(maxPendingPerPerson: 4, showVoteCounts: true))
        try await db.recordAudience(stationID: "party", minutes: [ListenerMinute(minute: 60_000, peak: 3, listenerMillis: 1_000, departures: 1)])

        for n in 0..<3 {
            try await db.saveChat(
                stationID: "party",
                .post(ChatMessage(id: "m\(n)", personID: n == 1 ? "bo" : "ana", name: "N", handle: nil, text: "hello \(n)", sentAt: 100 + Int64(n)), purgeBefore: 0))
        }
        try await db.saveChat(stationID: "party", .mute(personID: "guest", until: 99_999))
        try await db.saveChat(stationID: "party", .slowMode(seconds: 30))
        try await db.recordReactions(stationID: "party", Reactions.Burst(entryID: played[0].id, trackID: played[0].trackID, burst: ["🔥": 2], totals: ["🔥": 2]))

        for track in tracks.prefix(3) { _ = try await db.like(personID: "bo", trackID: track, at: 30, limit: 100) }
        let show = Show(
            id: "sh1", stationID: "party", name: "Morning", timeZone: "Europe/Oslo", startTime: LocalTime("09:00")!, durationMinutes: 60,
            repeats: .weekly(interval: 1, weekdays: [.monday], weekStart: .monday), seasonStart: LocalDate("2026-09-01")!, updatedAt: 1)
        try await db.saveShow(show, check: { _ in })
        try await db.setReminder(ShowReminder(personID: "bo", showID: "sh1", leadMinutes: 10, createdAt: 3), limit: 5)
        try await db.insertClip(
            VoiceClip(id: "v1", stationID: "party", personID: "bo", name: "Bo", note: "hi", durationMs: 3_000, bytes: 1_000, status: .approved, createdAt: 40),
            quotaBytes: 1 << 20, pendingLimit: 3)
        try await db.setStreamKey(personID: "ana", hash: "key-hash", at: 50)
        try await db.issueLinkToken(hash: "kept", purpose: .stream, stationID: "party", personID: "bo", keep: 2, at: 51)
        try await db.issueLinkToken(hash: "revoked", purpose: .calendar, stationID: "party", personID: "bo", keep: 2, at: 52)
        _ = try await db.revokeLinkTokens(purpose: .calendar, stationID: "party", personID: "bo")
        // Older versions kept revoked tokens (PostgreSQL keeps none): one such row.
        try await db.writer.write { db in
            try db.execute(
                sql: "INSERT INTO streamToken (hash, stationID, personID, purpose, createdAt, revokedAt) VALUES ('old', 'party', 'bo', 'stream', 1, 2)")
        }
        try await db.saveLockout(limiter: "code", .init(key: "10.0.0.9", lockedUntil: 90_000, level: 2, lastFailure: 80_000))
        _ = try await db.fileReport(
            ReportRecord(
                id: "rep1", subject: .chat, subjectID: "m1", reason: .spam, note: "ads", reporterID: "ana", reporterName: "Ana",
                stationID: "party", stationName: "Party", reportedPersonID: "bo", reportedName: "Bo", content: "hello 1",
                contentAt: 101, createdAt: 60),
            limits: ReportLimits())
        try await db.block("ana", "bo", at: 61, limit: 10)
        _ = try await db.setHiddenFromDial(
            stationID: "party", true,
            audit: AuditEntry(
                at: 62, actorID: nil, actorName: "shell", action: "hide-station", subjectKind: "station", subjectID: "party",
                subjectName: "Party", reason: "test"))
        var upload = TrackRecord(
            id: "up1", file: LibraryContractTests.file("/data/uploads/up1.mp3", title: "Demo Tape", artist: "Ana", album: "Home"),
            addedAt: 63)
        upload.uploaderID = "ana"
        upload.uploadName = "demo tape.mp3"
        try await db.insertUpload(
            upload, features: AudioFeatures(), allowance: UploadAllowance(defaultQuotaBytes: 1 << 30, serverCapBytes: 1 << 32), at: 63)
        let audit = AuditEntry(
            at: 64, actorID: nil, actorName: "shell", action: "set", subjectKind: "person", subjectID: "bo", subjectName: "Bo",
            reason: "test")
        _ = try await db.setUploadQuota(personID: "bo", bytes: 5 << 20, audit: audit)
        let fixed = TagOverride(title: "Café Song Zero")
        let first = try await db.tracks(artist: nil, album: nil, limit: 1, offset: 0)[0]
        _ = try await db.setTagOverride(trackID: first.id, fixed, tags: fixed.applied(to: first.metadata.tags), audit: audit)
    }

    /// What a server reads, as a value to compare between the two stores.
    static func reading(_ db: any Storage) async throws -> [String] {
        var out: [String] = []
        func note(_ label: String, _ value: Any) { out.append("\(label): \(value)") }
        for record in try await db.allStations() {
            note("station", record)
            let loaded = try #require(try await db.loadStation(id: record.id))
            note("state", loaded.state)
            note("commands", loaded.recentCommands)
            note("party", loaded.party)
            note("taste", loaded.taste.beliefs.sorted { $0.key < $1.key })
            note("credibility", loaded.credibility.sorted { $0.key < $1.key })
            note("chat", try await db.chatRoom(stationID: record.id, limit: 50, now: 1_000))
            note("reactions", try await db.reactions(stationID: record.id, entryID: loaded.state.recentHistory.first?.id ?? "").sorted { $0.key < $1.key })
            note("plays", try await db.plays(stationID: record.id, matching: PlaySearch(before: 100_000, limit: 50)))
            note("pool", try await db.pool(stationID: record.id))
            note("thumbs", try await db.thumbs(stationID: record.id, limit: 10))
            note("audience", try await db.audience(stationID: record.id, from: 0, to: 1_000_000))
            note("members", try await db.memberships(stationID: record.id))
            note("invites", try await db.invites(stationID: record.id))
            note("shows", try await db.shows(stationID: record.id))
            note("clips", try await db.clips(stationID: record.id, personID: nil, limit: 10))
        }
        for id in ["ana", "bo", "guest"] {
            note("person", try await db.person(id: id) as Any)
            note("follows", try await db.followCounts(of: id))
            note("followers", try await db.followers(of: id, limit: 10).map(\.id))
            note("likes", try await db.likedTracks(personID: id, limit: 10))
            note("reminders", try await db.reminders(personID: id))
            note("standing", try await db.standing(personID: id) as Any)
        }
        note("audit", try await db.auditLog(before: nil, limit: 10))
        note("registration", try await db.registrationPolicy() as Any)
        note("waiting", try await db.waitingSignups(limit: 10))
        note("server invites", try await db.serverInvites(createdBy: nil, limit: 10))
        note("password reset", try await db.passwordResetHolder(tokenHash: "reset", at: 10)?.id as Any)
        note("reports", try await db.reports(ReportFilter(status: nil), limit: 10))
        note("blocks", try await db.blocked(by: "ana").map(\.id))
        note("hidden", try await db.hiddenFromDial(try await db.allStations().map(\.id)).sorted())
        note("uploads", try await db.uploads(by: "ana", limit: 10, offset: 0))
        note("ana's search", try await db.search("demo", limit: 10, viewer: "ana").map(\.id))
        note("quota", try await db.uploadUsage(personID: "bo", allowance: UploadAllowance(defaultQuotaBytes: 1, serverCapBytes: 1)))
        let first = try await db.tracks(artist: nil, album: nil, limit: 1, offset: 0)[0]
        note("override", try await db.tagOverride(trackID: first.id) as Any)
        note("session", try await db.session(tokenHash: "t1") as Any)
        note("rotated", try await db.session(previousTokenHash: "t2") as Any)
        note("search", try await db.search("cafe song", limit: 10).map(\.id).sorted())
        note("tracks", try await db.tracks(artist: nil, album: nil, limit: 10, offset: 0).sorted { $0.id < $1.id })
        note("analysis", try await db.analysisCounts())
        note("fingerprints", try await db.fingerprints().map { "\($0.0)=\($0.1.items)" })
        note("stream key", try await db.streamKeyHolder(hash: "key-hash") as Any)
        note("link kept", try await db.linkTokenHolder(hash: "kept", purpose: .stream).map { "\($0.stationID)/\($0.personID)" } as Any)
        note("link revoked", try await db.linkTokenHolder(hash: "revoked", purpose: .calendar).map { "\($0.stationID)" } as Any)
        note("lockouts", try await db.lockouts(activeAt: 85_000).map { "\($0.limiter)/\($0.lockout)" })
        return out
    }

    @Test func aCommunityReadsTheSameAfterTheCopyAndGoesOn() async throws {
        let folder = NSTemporaryDirectory() + "wavelength-migrate-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let sqlite = try AppDatabase.open(path: folder + "/wavelength.sqlite")
        try await Self.community(sqlite)
        let before = try await Self.reading(sqlite)

        try await PostgresStore.onSharedServer { store in
            try await store.migrate()
            let report = try await store.importCommunity(from: sqlite)
            #expect(report.tables.first { $0.source == "streamToken" }?.dropped == 1)
            #expect(report.tables.allSatisfy { $0.copied > 0 || $0.dropped > 0 }, "every table held something: \(report.tables.filter { $0.copied == 0 }.map(\.source))")
            let after = try await Self.reading(store)
            for (old, new) in zip(before, after) where old != new {
                Issue.record("differs after the copy:\n  SQLite:     \(old)\n  PostgreSQL: \(new)")
            }
            #expect(before.count == after.count)

            // The copy goes on: new plays, chat and likes come after the copied ones.
            let loaded = try #require(try await store.loadStation(id: "party"))
            var state = loaded.state
            var rng = SeededRandom(seed: 9)
            let outcome = try state.apply(.skip(entryID: nil), at: 50, track: { _ in nil }, using: &rng)
            try await store.saveStation(state, played: outcome.played, command: AppliedCommand(id: "after", revision: state.revision, appliedAt: 50))
            let plays = try await store.plays(stationID: "party", matching: PlaySearch(before: 100_000, limit: 50))
            #expect(plays.first?.entry.id == outcome.played.last?.id)
            try await store.saveChat(
                stationID: "party", .post(ChatMessage(id: "new", personID: "bo", name: "Bo", handle: nil, text: "after", sentAt: 200), purgeBefore: 0))
            #expect(try await store.chatRoom(stationID: "party", limit: 50, now: 1_000).recent.last?.id == "new")

            // A second copy into a database that holds a community is refused, and changes nothing.
            await #expect(throws: ImportError.targetNotEmpty) { try await store.importCommunity(from: sqlite) }
        }
    }
}
