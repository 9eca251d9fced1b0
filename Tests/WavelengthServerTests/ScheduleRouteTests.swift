import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WavelengthCore
import WavelengthSQLite
import WavelengthWire

@testable import WavelengthServer

/// Shows over HTTP: who may edit, overlaps refused, bad specs refused with
/// the field named, a show's page with its past playlists, reminders, and
/// edits that survive kill -9.
@Suite("Schedule routes")
struct ScheduleRouteTests {
    /// Alternating Tuesdays at 22:00 in Los Angeles, in a season a year ahead.
    static func nightOwls(_ name: String = "Night Owls", from: String = "2027-01-05", at: String = "22:00") -> ShowSpec {
        ShowSpec(
            name: name, genre: "Jazz", timeZone: "America/Los_Angeles", startTime: at, durationMinutes: 120,
            repeat: .init(kind: "weekly", interval: 2, weekdays: ["TU"]), seasonStart: from, seasonEnd: "2027-12-31")
    }

    @Test func ownersAndCoDJsEditListenersRead() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let owner = try await client.signUp(name: "Owner")
            let listener = try await client.signUp(name: "Listener")
            let path = "/api/stations/\(owner.stationID)/shows"
            #expect(try await client.send(path, .post, body: Self.nightOwls()).status == .unauthorized)
            let refused = try await client.send(path, .post, as: listener, body: Self.nightOwls())
            #expect(refused.status == .forbidden)

            let created = try await client.send(path, .post, as: owner, body: Self.nightOwls())
            #expect(created.status == .created, "\(String(buffer: created.body))")
            let show = try created.decode(ShowView.self)
            #expect(show.repeat.interval == 2 && show.repeat.weekdays == ["TU"] && show.repeat.weekStart == "MO")
            #expect(show.calendarURL == "/api/stations/\(owner.stationID)/shows/\(show.id)/calendar.ics")

            // A listener sees the schedule and the page, without editing.
            let window = "from=2027-01-01T00:00&to=2027-02-01T00:00&tz=America/Los_Angeles"
            let schedule = try await client.send(
                "/api/stations/\(owner.stationID)/schedule?\(window)", .get, as: listener)
            let view = try schedule.decode(ScheduleView.self)
            #expect(!view.canEdit)
            let days = view.episodes.map { Date(timeIntervalSince1970: Double($0.start) / 1000).formatted(.iso8601) }
            #expect(days == ["2027-01-06T06:00:00Z", "2027-01-20T06:00:00Z"])
            let page = try await client.send("\(path)/\(show.id)", .get, as: listener).decode(ShowPage.self)
            #expect(!page.canEdit && page.upcoming.count == 6 && page.past.isEmpty)
            #expect(try await client.send("\(path)/\(show.id)", .put, as: listener, body: Self.nightOwls()).status == .forbidden)
            #expect(try await client.send("\(path)/\(show.id)", .delete, as: listener).status == .forbidden)

            // The owner cancels one episode and moves another.
            var edit = Self.nightOwls()
            edit.cancelled = ["2027-01-05"]
            edit.moved = [.init(date: "2027-01-19", start: "2027-01-21T20:00")]
            let edited = try await client.send("\(path)/\(show.id)", .put, as: owner, body: edit)
            #expect(edited.status == .ok, "\(String(buffer: edited.body))")
            let after = try await client.send(
                "/api/stations/\(owner.stationID)/schedule?\(window)", .get, as: owner).decode(ScheduleView.self)
            #expect(after.canEdit)
            #expect(after.episodes.map(\.moved) == [true])
            #expect(after.episodes.first?.start == 1_800_590_400_000)  // 21 Jan 2027 20:00 PST

            #expect(try await client.send("\(path)/\(show.id)", .delete, as: owner).status == .noContent)
            #expect(try await client.send("\(path)/\(show.id)", .get, as: owner).status == .notFound)
        }
    }

    @Test func overlappingShowsAreRefusedNamingBoth() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let owner = try await client.signUp()
            let path = "/api/stations/\(owner.stationID)/shows"
            #expect(try await client.send(path, .post, as: owner, body: Self.nightOwls()).status == .created)
            // The other weeks' Tuesdays are free: an alternating partner fits.
            let partner = try await client.send(path, .post, as: owner, body: Self.nightOwls("Day Owls", from: "2027-01-12"))
            #expect(partner.status == .created)
            // Back to back fits too.
            let later = try await client.send(path, .post, as: owner, body: Self.nightOwls("Later", from: "2027-01-06", at: "00:00"))
            #expect(later.status == .created, "\(String(buffer: later.body))")

            var weekly = Self.nightOwls("Weekly Jazz", at: "23:00")
            weekly.repeat = .init(kind: "weekly", interval: 1, weekdays: ["TU"])
            let clash = try await client.send(path, .post, as: owner, body: weekly)
            #expect(clash.status == .conflict)
            #expect(clash.errorCode == "schedule_clash")
            let message = String(buffer: clash.body)
            #expect(message.contains("Weekly Jazz") && message.contains("Night Owls") && message.contains("2027-01-05"))
            let shows = try await client.send("/api/stations/\(owner.stationID)/schedule", .get, as: owner)
                .decode(ScheduleView.self).shows
            #expect(shows.map(\.name) == ["Day Owls", "Later", "Night Owls"])
        }
    }

    @Test func badSpecsAreRefusedNamingTheField() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let owner = try await client.signUp()
            let path = "/api/stations/\(owner.stationID)/shows"
            let cases: [(String, (inout ShowSpec) -> Void)] = [
                ("timeZone", { $0.timeZone = "Mars/Olympus" }),
                ("startTime", { $0.startTime = "25:00" }),
                ("durationMinutes", { $0.durationMinutes = 721 }),
                ("seasonStart", { $0.seasonStart = "2027-02-30" }),
                ("season ends", { $0.seasonEnd = "2026-01-01" }),
                ("weekdays", { $0.repeat.weekdays = [] }),
                ("Days are", { $0.repeat.weekdays = ["XX"] }),
                ("interval", { $0.repeat.interval = 13 }),
                ("ordinal", { $0.repeat = .init(kind: "monthly", weekday: "MO", ordinal: 6) }),
                ("repeat.kind", { $0.repeat.kind = "daily" }),
                ("name", { $0.name = "   " }),
                ("handle", { $0.hosts = ["nobody_here"] }),
                ("No episode", { $0.seasonEnd = "2027-01-06"; $0.seasonStart = "2027-01-06" }),
                ("moved episode", { $0.moved = [.init(date: "2027-01-05", start: "tomorrow")] }),
            ]
            for (field, change) in cases {
                var spec = Self.nightOwls()
                change(&spec)
                let response = try await client.send(path, .post, as: owner, body: spec)
                #expect(response.status == .badRequest, "\(field)")
                #expect(String(buffer: response.body).contains(field), "\(field): \(String(buffer: response.body))")
            }
            let garbage = try await client.execute(
                uri: path, method: .post,
                headers: [.authorization: "Bearer \(owner.token)", .contentType: "application/json"],
                body: .init(string: "{\"name\": 5}"))
            #expect(garbage.status == .badRequest)
            #expect(try await client.send("/api/stations/\(owner.stationID)/schedule?from=0&to=\(63 * 86_400_000)", .get, as: owner).status == .badRequest)
        }
    }

    @Test func hostsAreNamedAndAPageShowsWhatPlayedInEachEpisode() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let owner = try await client.signUp()
            let host = try await client.signUp(name: "Ada Host")
            // Every day at midnight UTC for 12 hours, from a week ago.
            let now = EpochMillis(Date().timeIntervalSince1970 * 1000)
            let today = ZonedTime.local(now, in: TimeZone(identifier: "UTC")!).date
            var spec = Self.nightOwls("Daily", from: today.adding(days: -7).description, at: "00:00")
            spec.timeZone = "UTC"
            spec.durationMinutes = 720
            spec.seasonEnd = nil
            spec.repeat = .init(kind: "weekly", weekdays: ["MO", "TU", "WE", "TH", "FR", "SA", "SU"])
            spec.hosts = [host.person.handle!]
            let show = try await client.send("/api/stations/\(owner.stationID)/shows", .post, as: owner, body: spec)
                .decode(ShowView.self)
            #expect(show.hosts == [HostView(handle: host.person.handle!, displayName: "Ada Host")])

            let yesterday = ZonedTime.instant(today.adding(days: -1), LocalTime(minute: 0)!, in: TimeZone(identifier: "UTC")!)
            let track = try await client.firstTrack(matching: "Reel")
            let loaded = try #require(try await server.storage.loadStation(id: owner.stationID))
            let entry = TimelineEntry(id: "e-yesterday", trackID: track.id, start: yesterday + 3_600_000, duration: 180_000, source: .dj)
            try await server.storage.saveStation(StationSave(state: loaded.state, played: [entry], command: nil))
            try await server.storage.recordAudience(
                stationID: owner.stationID,
                minutes: [
                    ListenerMinute(minute: yesterday + 3_600_000, peak: 7, listenerMillis: 300_000),
                    ListenerMinute(minute: yesterday + 3_660_000, peak: 4, listenerMillis: 240_000),
                    // Outside the episode (it ends at noon).
                    ListenerMinute(minute: yesterday + 13 * 3_600_000, peak: 40, listenerMillis: 2_400_000),
                ])

            let page = try await client.send("/api/stations/\(owner.stationID)/shows/\(show.id)", .get)
                .decode(ShowPage.self)
            let aired = try #require(page.past.first { $0.episode.start == yesterday })
            #expect(aired.plays.map(\.id) == ["e-yesterday"])
            #expect(aired.audience.peak == 7 && aired.audience.listenerMinutes == 9)
            let csv = try await client.send(aired.csvURL, .get, as: owner)
            #expect(csv.status == .ok && String(buffer: csv.body).contains(track.title))
            #expect(aired.episode.hosts.map(\.displayName) == ["Ada Host"])
            #expect(page.past.count == 4)
            #expect(page.past.map(\.episode.start) == page.past.map(\.episode.start).sorted(by: >))
        }
    }

    @Test func remindersBelongToTheirPerson() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let owner = try await client.signUp()
            let fan = try await client.guest("Fan")
            let show = try await client.send("/api/stations/\(owner.stationID)/shows", .post, as: owner, body: Self.nightOwls())
                .decode(ShowView.self)
            let path = "/api/stations/\(owner.stationID)/shows/\(show.id)/reminder"
            #expect(try await client.send(path, .put).status == .unauthorized)
            #expect(try await client.send(path, .put, as: fan, body: ReminderRequest(leadMinutes: 0)).status == .badRequest)
            let set = try await client.send(path, .put, as: fan, body: ReminderRequest(leadMinutes: 15))
            #expect(set.status == .ok, "\(String(buffer: set.body))")
            #expect(try set.decode(ReminderView.self).next?.start == 1_799_215_200_000)  // 5 Jan 2027 22:00 PST
            // With no body, the default lead.
            #expect(try await client.send(path, .put, as: owner).decode(ReminderView.self).leadMinutes == 10)

            let mine = try await client.send("/api/me/reminders", .get, as: fan).decode([ReminderView].self)
            #expect(mine.map(\.show.id) == [show.id] && mine.first?.leadMinutes == 15)
            let page = try await client.send("/api/stations/\(owner.stationID)/shows/\(show.id)", .get, as: fan)
            #expect(try page.decode(ShowPage.self).reminded)
            #expect(try await client.send("/api/me/reminders", .get).status == .unauthorized)

            #expect(try await client.send(path, .delete, as: fan).status == .noContent)
            #expect(try await client.send("/api/me/reminders", .get, as: fan).decode([ReminderView].self).isEmpty)
            // The owner's is untouched, and goes with the show.
            #expect(try await client.send("/api/me/reminders", .get, as: owner).decode([ReminderView].self).count == 1)
            _ = try await client.send("/api/stations/\(owner.stationID)/shows/\(show.id)", .delete, as: owner)
            #expect(try await client.send("/api/me/reminders", .get, as: owner).decode([ReminderView].self).isEmpty)
        }
    }

    /// A show's hosts control the music while their show airs, and only then.
    @Test func hostsAreCoDJsDuringTheirShowOnly() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let owner = try await client.signUp()
            let host = try await client.signUp(name: "Host")
            let track = try await client.firstTrack(matching: "Reel")
            func append(_ id: String) async throws -> HTTPResponse.Status {
                try await client.send(
                    "/api/stations/\(owner.stationID)/commands", .post, as: host,
                    body: CommandRequest(id: id, command: .append(trackID: track.id))
                ).status
            }
            #expect(try await append("before") == .forbidden)
            // A show of theirs tomorrow gives them nothing today.
            let utc = TimeZone(identifier: "UTC")!
            let now = EpochMillis(Date().timeIntervalSince1970 * 1000)
            let tomorrow = ZonedTime.local(now + 86_400_000 + 3_600_000, in: utc)
            var spec = ShowSpec(
                name: "Tomorrow", hosts: [host.person.handle!], timeZone: "UTC", startTime: tomorrow.time.description,
                durationMinutes: 60, repeat: .init(kind: "once"), seasonStart: tomorrow.date.description)
            #expect(try await client.send("/api/stations/\(owner.stationID)/shows", .post, as: owner, body: spec).status == .created)
            #expect(try await append("tomorrow") == .forbidden)
            // Their show on the air now makes them a co-DJ.
            let began = ZonedTime.local(now - 600_000, in: utc)
            spec.name = "Now"
            spec.startTime = began.time.description
            spec.seasonStart = began.date.description
            #expect(try await client.send("/api/stations/\(owner.stationID)/shows", .post, as: owner, body: spec).status == .created)
            #expect(try await append("during") == .ok)
            let access = try await client.send("/api/stations/\(owner.stationID)/access", .get, as: host)
            #expect(try access.decode(StationAccess.self).role == .codj)
        }
    }

    /// Racing editors can't both pass the overlap check: it runs inside
    /// the save's own transaction.
    @Test func concurrentOverlappingShowsLetOnlyOneIn() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let owner = try await client.signUp()
            let path = "/api/stations/\(owner.stationID)/shows"
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for n in 0..<12 {
                    group.addTask { try await client.send(path, .post, as: owner, body: Self.nightOwls("Racer \(n)")).status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .created }.count == 1)
            #expect(statuses.filter { $0 == .conflict }.count == 11)
        }
    }

    @Test func scheduleEditsSurviveKillDashNine() async throws {
        let data = NSTemporaryDirectory() + "wavelength-schedule-kill-\(UUID().uuidString)"
        let libraries = try await TestLibrary.shared.roots()
        let http = HTTPClient.shared
        let (first, killed) = try await ServerProcess.run(dataDirectory: data, libraries: libraries) {
            server -> (station: String, key: String, show: ShowView) in
            let signup = try JSONEncoder().encode(
                SignupRequest(handle: TestHandles.next("s"), displayName: "Sched", password: "correct horse", tokens: true))
            let auth = try JSONDecoder().decode(
                AuthResponse.self, from: try await http.send(.POST, server.baseURL + "/api/auth/signup", body: signup).body)
            let station = try #require(auth.station?.id)
            let key = try #require(auth.tokens?.accessToken)
            let url = server.baseURL + "/api/stations/\(station)/shows"
            let created = try await http.send(.POST, url, body: try JSONEncoder().encode(Self.nightOwls()), key: key)
            #expect(created.status == .created)
            var show = try JSONDecoder().decode(ShowView.self, from: created.body)
            var edit = Self.nightOwls()
            edit.cancelled = ["2027-01-19"]
            let edited = try await http.send(.PUT, url + "/\(show.id)", body: try JSONEncoder().encode(edit), key: key)
            #expect(edited.status == .ok)
            show = try JSONDecoder().decode(ShowView.self, from: edited.body)
            // Killed right after the acknowledgement.
            await server.kill9()
            return (station, key, show)
        }
        #expect(killed == .signaled(SIGKILL))
        _ = try await ServerProcess.run(dataDirectory: data, libraries: libraries) { restarted in
            let page = try await http.send(
                .GET, restarted.baseURL + "/api/stations/\(first.station)/shows/\(first.show.id)", key: first.key)
            #expect(page.status == .ok)
            #expect(try JSONDecoder().decode(ShowPage.self, from: page.body).show == first.show)
        }
    }
}

@Suite("A show's own programming", .timeLimit(.minutes(5)))
struct ShowProgrammingTests {
    /// While a show with its own pool airs and no DJ is live, the robot
    /// plays from that pool; the station's pool is for between shows.
    @Test func theRobotPlaysTheShowOnTheAir() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let owner = try await client.signUp()
            let station = owner.stationID
            let showTrack = try await client.firstTrack(matching: "nandu")
            let stationTrack = try await client.firstTrack(matching: "Reel")
            _ = try await client.send("/api/stations/\(station)/pool", .put, as: owner, body: StationPool(trackIDs: [stationTrack.id]))
            // A one-off show that started an hour ago and runs two more.
            let utc = TimeZone(identifier: "UTC")!
            let began = ZonedTime.local(EpochMillis(Date().timeIntervalSince1970 * 1000) - 3_600_000, in: utc)
            let spec = ShowSpec(
                name: "Nandu Hour", timeZone: "UTC", startTime: began.time.description, durationMinutes: 180,
                repeat: .init(kind: "once"), seasonStart: began.date.description, pool: [showTrack.id, "gone-from-library"])
            let created = try await client.send("/api/stations/\(station)/shows", .post, as: owner, body: spec)
            #expect(created.status == .created, "\(String(buffer: created.body))")
            #expect(try created.decode(ShowView.self).pool == [showTrack.id, "gone-from-library"])
            let schedule = try await client.send("/api/stations/\(station)/schedule", .get).decode(ScheduleView.self)
            #expect(schedule.now?.name == "Nandu Hour")

            let listener = LiveClient(port: client.port!, path: "/api/stations/\(station)/live")
            let snapshot = try await listener.snapshot()
            let robotPicks = ([snapshot.timeline.current].compactMap { $0 } + snapshot.timeline.upNext).filter { $0.source == .robot }
            #expect(!robotPicks.isEmpty)
            #expect(robotPicks.allSatisfy { $0.track.id == showTrack.id })
            listener.close()
        }
    }
}
