import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import WavelengthCore
import WavelengthStore
import WavelengthWire

/// A station's schedule: its shows, the week's episodes with now and next,
/// each show's page with its past playlists, the iCalendar feeds, and the
/// reminders people set. Owners and co-DJs edit; anyone who may listen reads.
struct ScheduleController {
    let directory: StationDirectory
    let schedule: any ScheduleRepository
    let history: any HistoryRepository
    let people: any PeopleRepository
    let catalog: LibraryCatalog
    let gate: StationGate
    let links: LinkTokens
    let clock: any ServerClock
    /// Live sources: one whose host is no longer on the air's show is cut.
    var sources: LiveSources? = nil

    /// Live calendar links a person may hold on one station: one for each
    /// calendar they subscribe from; the eleventh revokes the oldest.
    static let calendarLinksKept = 10

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/api/stations/{id}/schedule", use: week)
        router.get("/api/stations/{id}/schedule.ics", use: stationCalendar)
        router.post("/api/stations/{id}/shows", use: create)
        router.get("/api/stations/{id}/shows/{showID}", use: page)
        router.put("/api/stations/{id}/shows/{showID}", use: update)
        router.delete("/api/stations/{id}/shows/{showID}", use: delete)
        router.get("/api/stations/{id}/shows/{showID}/calendar.ics", use: showCalendar)
        router.put("/api/stations/{id}/shows/{showID}/reminder", use: remind)
        router.delete("/api/stations/{id}/shows/{showID}/reminder", use: forget)
        router.get("/api/me/reminders", use: reminders)
        router.post("/api/stations/{id}/calendar-link", use: issueCalendarLink)
        router.delete("/api/stations/{id}/calendar-link", use: revokeCalendarLinks)
    }

    /// The episodes in `from..<to` (the 7 days from today's start in `tz`
    /// unless asked), with what is on now and next.
    @Sendable func week(_ request: Request, context: AppRequestContext) async throws -> ScheduleView {
        let (hub, role) = try await listening(context)
        let zone = try InstantQuery.zone(try request.stringQuery("tz", maxLength: 64))
        let now = clock.now()
        let today = ZonedTime.instant(ZonedTime.local(now, in: zone).date, LocalTime(minute: 0)!, in: zone)
        let from = try request.instantQuery("from", zone: zone) ?? today
        let to = try request.instantQuery("to", zone: zone) ?? from + 7 * 86_400_000
        let (span, overflow) = to.subtractingReportingOverflow(from)
        guard from < to, !overflow, span <= EpochMillis(ScheduleLimits.maxWindowDays) * 86_400_000 else {
            throw APIError.badRequest("A schedule window runs from one instant to a later one, 62 days at most.")
        }
        let shows = try await schedule.shows(stationID: hub.id)
        let station = StationSchedule(shows: shows)
        var names = HostNames(people: people)
        let byID = Dictionary(uniqueKeysWithValues: shows.map { ($0.id, $0) })
        func view(_ episode: Episode?) async throws -> EpisodeView? {
            guard let episode, let show = byID[episode.showID] else { return nil }
            return EpisodeView(episode: episode, show: show, hosts: try await names.hosts(of: show))
        }
        var episodes: [EpisodeView] = []
        for episode in station.episodes(overlapping: from, to) {
            if let view = try await view(episode) { episodes.append(view) }
        }
        var views: [ShowView] = []
        for show in shows.sorted(by: { $0.name < $1.name }) {
            views.append(ShowView(show: show, hosts: try await names.hosts(of: show)))
        }
        let (current, next) = station.nowAndNext(at: now)
        return ScheduleView(
            shows: views, episodes: episodes, now: try await view(current), next: try await view(next), from: from, to: to,
            serverTime: now, calendarURL: "/api/stations/\(hub.id)/schedule.ics",
            calendarLinkURL: Self.calendarLinkURL(await hub.record), canEdit: StationPermissions.allows(role, .editSchedule))
    }

    /// A show spec: a body that may be larger than most, as its largest
    /// valid form is (a full pool), or a valid pool would be refused 413.
    private static func spec(_ request: Request, _ context: AppRequestContext) async throws -> ShowSpec {
        var context = context
        context.uploadLimit = ScheduleLimits.maxSpecBytes
        return try await request.decode(as: ShowSpec.self, context: context)
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<ShowView> {
        let (hub, isOwner) = try await editing(context)
        let spec = try await Self.spec(request, context)
        let id = "w" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        let show = try await save(spec, id: id, on: await hub.record, hostsBefore: [], isOwner: isOwner)
        await hub.scheduleChanged()
        var names = HostNames(people: people)
        return EditedResponse(status: .created, response: ShowView(show: show, hosts: try await names.hosts(of: show)))
    }

    @Sendable func update(_ request: Request, context: AppRequestContext) async throws -> ShowView {
        let (hub, isOwner) = try await editing(context)
        let existing = try await show(context, on: hub.id)
        let spec = try await Self.spec(request, context)
        let show = try await save(spec, id: existing.id, on: await hub.record, hostsBefore: existing.hostIDs, isOwner: isOwner)
        await hub.scheduleChanged()
        await sources?.revalidate(stationID: hub.id)
        var names = HostNames(people: people)
        return ShowView(show: show, hosts: try await names.hosts(of: show))
    }

    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (hub, _) = try await editing(context)
        let show = try await show(context, on: hub.id)
        _ = try await schedule.deleteShow(id: show.id)
        await hub.scheduleChanged()
        await sources?.revalidate(stationID: hub.id)
        return Response(status: .noContent)
    }

    /// The show, its next episodes, and its last aired ones with what the
    /// station played during each.
    @Sendable func page(_ request: Request, context: AppRequestContext) async throws -> ShowPage {
        let (hub, role) = try await listening(context)
        let show = try await show(context, on: hub.id)
        let now = clock.now()
        var names = HostNames(people: people)
        let hosts = try await names.hosts(of: show)
        var past: [ShowPage.PastEpisode] = []
        for episode in show.past(before: now, count: 4) {
            let end = min(episode.end, now)
            let plays = try await history.plays(
                stationID: hub.id, matching: PlaySearch(before: end, from: episode.start, limit: 200))
            // The minutes that began while it aired: its peak and listening.
            let minutes = try await history.audience(
                stationID: hub.id, from: ListenerMinute.start(of: episode.start), to: end)
            let span = "from=\(episode.start)&to=\(end)"
            past.append(
                .init(
                    episode: EpisodeView(episode: episode, show: show, hosts: hosts),
                    plays: try await catalog.entryViews(Array(plays.reversed())), audience: AudienceDay(minutes: minutes),
                    csvURL: "/api/stations/\(hub.id)/history.csv?\(span)", m3uURL: "/api/stations/\(hub.id)/history.m3u?\(span)"))
        }
        let reminded =
            if let personID = context.caller.personID {
                try await schedule.reminders(personID: personID).contains { $0.showID == show.id }
            } else { false }
        return ShowPage(
            show: ShowView(show: show, hosts: hosts),
            upcoming: show.upcoming(after: now, count: 6).map { EpisodeView(episode: $0, show: show, hosts: hosts) },
            past: past, reminded: reminded, canEdit: StationPermissions.allows(role, .editSchedule), serverTime: now,
            calendarLinkURL: Self.calendarLinkURL(await hub.record))
    }

    @Sendable func stationCalendar(_ request: Request, context: AppRequestContext) async throws -> Response {
        let hub = try await feedListening(request, context)
        let record = await hub.record
        return try await calendar(name: record.name, shows: try await schedule.shows(stationID: hub.id), file: hub.id)
    }

    @Sendable func showCalendar(_ request: Request, context: AppRequestContext) async throws -> Response {
        let hub = try await feedListening(request, context)
        let show = try await show(context, on: hub.id)
        let record = await hub.record
        return try await calendar(name: "\(show.name) · \(record.name)", shows: [show], file: show.id)
    }

    @Sendable func remind(_ request: Request, context: AppRequestContext) async throws -> ReminderView {
        guard let personID = context.caller.personID else {
            throw APIError(.unauthorized, code: .signInRequired, "Sign in to be reminded of a show.")
        }
        let (hub, _) = try await listening(context)
        let show = try await show(context, on: hub.id)
        let body = try await request.decodeIfPresent(as: ReminderRequest.self, context: context)
        let lead = body?.leadMinutes ?? 10
        guard ScheduleLimits.reminderLeadMinutes.contains(lead) else {
            throw APIError.badRequest("leadMinutes is from 1 to 120.")
        }
        do {
            try await schedule.setReminder(
                ShowReminder(personID: personID, showID: show.id, leadMinutes: lead, createdAt: clock.now()),
                limit: ScheduleLimits.maxReminders)
        } catch StorageError.reminderLimit(let limit) {
            throw APIError(.conflict, code: .reminderLimit, "You keep at most \(limit) reminders: remove one first.")
        }
        var names = HostNames(people: people)
        let hosts = try await names.hosts(of: show)
        return ReminderView(
            stationID: hub.id, stationName: await hub.record.name, show: ShowView(show: show, hosts: hosts),
            next: show.upcoming(after: clock.now(), count: 1).first.map { EpisodeView(episode: $0, show: show, hosts: hosts) },
            leadMinutes: lead)
    }

    @Sendable func forget(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let personID = context.caller.personID else {
            throw APIError(.unauthorized, code: .signInRequired, "Sign in to change your reminders.")
        }
        let hub = try await directory.hub(context)
        let show = try await show(context, on: hub.id)
        _ = try await schedule.removeReminder(personID: personID, showID: show.id)
        return Response(status: .noContent)
    }

    /// The caller's reminders with each show's next episode, soonest first,
    /// for stations they may still listen to.
    @Sendable func reminders(_ request: Request, context: AppRequestContext) async throws -> [ReminderView] {
        guard let personID = context.caller.personID else {
            throw APIError(.unauthorized, code: .signInRequired, "Sign in to see your reminders.")
        }
        let reminders = try await schedule.reminders(personID: personID)
        let shows = Dictionary(
            uniqueKeysWithValues: try await schedule.shows(ids: reminders.map(\.showID)).map { ($0.id, $0) })
        let now = clock.now()
        var names = HostNames(people: people)
        var views: [ReminderView] = []
        for reminder in reminders {
            guard let show = shows[reminder.showID], let hub = try await directory.hub(id: show.stationID) else { continue }
            let record = await hub.record
            guard (try? await gate.requireListener(context.caller, on: record)) != nil else { continue }
            let hosts = try await names.hosts(of: show)
            views.append(
                ReminderView(
                    stationID: record.id, stationName: record.name, show: ShowView(show: show, hosts: hosts),
                    next: show.upcoming(after: now, count: 1).first.map {
                        EpisodeView(episode: $0, show: show, hosts: hosts)
                    }, leadMinutes: reminder.leadMinutes))
        }
        return views.sorted { ($0.next?.start ?? .max) < ($1.next?.start ?? .max) }
    }

    // MARK: Helpers

    /// Validates and saves, refusing an overlap with another show or a full
    /// schedule inside the save's own transaction. Only the owner names
    /// hosts (`ShowHosts`), and nobody banned from the station is named.
    private func save(
        _ spec: ShowSpec, id: ShowID, on record: StationRecord, hostsBefore: [String], isOwner: Bool
    ) async throws -> Show {
        let stationID = record.id
        guard (spec.hosts ?? []).count <= ScheduleLimits.maxHosts else {
            throw APIError.badRequest("A show has at most \(ScheduleLimits.maxHosts) hosts.")
        }
        var hostIDs: [String] = []
        for handle in spec.hosts ?? [] {
            guard handle.utf8.count <= 64, let person = try await people.person(handle: handle), person.kind != .guest
            else { throw APIError.badRequest("No one has the handle \(handle.prefix(64)): hosts are people with accounts.") }
            if !hostIDs.contains(person.id) { hostIDs.append(person.id) }
        }
        guard ShowHosts.mayName(hostIDs, existing: hostsBefore, actorIsOwner: isOwner) else {
            throw APIError(.forbidden, code: .forbidden, "Only the station's owner names a show's hosts.")
        }
        for personID in Set(hostIDs).subtracting(hostsBefore)
        where try await gate.access.access(stationID: stationID, personID: personID, ownerID: record.ownerID).banned {
            throw APIError(.conflict, code: .conflict, "Someone banned from this station can't host its shows.")
        }
        let now = clock.now()
        let show = try ShowSpecReader.show(spec, id: id, stationID: stationID, hostIDs: hostIDs, updatedAt: now)
        try await schedule.saveShow(show) { others in
            if !others.contains(where: { $0.id == show.id }), others.count >= StationSchedule.maxShows {
                throw APIError(.conflict, code: .scheduleFull, "A station has at most \(StationSchedule.maxShows) shows.")
            }
            if let clash = StationSchedule(shows: others).firstClash(with: show, from: now) {
                throw APIError(.conflict, code: .scheduleClash, Self.describe(clash, show: show))
            }
        }
        return show
    }

    /// "“Night Owls” on Tue 24 Nov 2026 at 22:00 would overlap “Morning
    /// Drive” (21:00–23:00)." In the new show's zone.
    static func describe(_ clash: ScheduleClash, show: Show) -> String {
        let zone = show.zone
        let start = ZonedTime.local(clash.episode.start, in: zone)
        let day = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][start.date.weekday.index]
        let otherStart = ZonedTime.local(clash.otherEpisode.start, in: zone).time
        let otherEnd = ZonedTime.local(clash.otherEpisode.end, in: zone).time
        return "“\(show.name)” on \(day) \(start.date) at \(start.time) would overlap "
            + "“\(clash.other.name)” (\(otherStart)–\(otherEnd), \(show.timeZone))."
    }

    private func calendar(name: String, shows: [Show], file: String) async throws -> Response {
        var names = HostNames(people: people)
        var hostNames: [String: String] = [:]
        for show in shows {
            for id in show.hostIDs { hostNames[id] = try await names.host(id)?.displayName }
        }
        let text = CalendarFeed(name: name, shows: shows, hostNames: hostNames, now: clock.now()).render()
        var headers = HTTPFields()
        headers[.contentType] = "text/calendar; charset=utf-8"
        headers[.contentDisposition] = "inline; filename=\"\(file).ics\""
        headers[.cacheControl] = "no-cache"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// Your own link to the station's calendar feeds. A public or unlisted
    /// station's needs no token. Any other's carries a new token of the
    /// caller's, which lets a calendar app in for as long as the caller may
    /// listen and until it is revoked.
    @Sendable func issueCalendarLink(_ request: Request, context: AppRequestContext) async throws -> CalendarLink {
        // Asking for a link is asking as someone: nobody, or a token that
        // names nobody, is told to sign in, whatever the station.
        guard let person = context.caller.person else {
            throw APIError(.unauthorized, code: .signInRequired, "Sign in, or join as a guest, to get a calendar link.")
        }
        let (hub, _) = try await listening(context)
        let record = await hub.record
        let feed = "/api/stations/\(record.id)/schedule.ics"
        guard Self.calendarLinkURL(record) != nil else { return CalendarLink(schedule: feed, token: nil) }
        let token = try await links.issue(
            .calendar, stationID: record.id, personID: person.id, keep: Self.calendarLinksKept, at: clock.now())
        return CalendarLink(schedule: "\(feed)?token=\(token)", token: token)
    }

    /// Revokes every calendar link the caller holds on the station.
    @Sendable func revokeCalendarLinks(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        let hub = try await directory.hub(context)
        try await links.revokeAll(.calendar, on: hub.id, for: context.caller, noun: "calendar link")
        return .noContent
    }

    /// Where to ask for a calendar link with a token, when the station's
    /// feeds need one (it isn't public or unlisted).
    static func calendarLinkURL(_ record: StationRecord) -> String? {
        record.visibility == .public || record.visibility == .unlisted ? nil : "/api/stations/\(record.id)/calendar-link"
    }

    /// A feed's reader: whoever calls, or the person a `?token=` stands for.
    private func feedListening(_ request: Request, _ context: AppRequestContext) async throws -> StationHub {
        let hub = try await directory.hub(context)
        let record = await hub.record
        var caller = context.caller
        if let token = try request.stringQuery("token", maxLength: 100) {
            guard let holder = try await links.caller(token, .calendar, on: record.id) else {
                throw APIError(.forbidden, code: .forbidden, "This calendar link was revoked, or is for another station.")
            }
            caller = holder
        }
        _ = try await gate.requireListener(caller, on: record)
        return hub
    }

    private func listening(_ context: AppRequestContext) async throws -> (StationHub, StationRole) {
        let hub = try await directory.hub(context)
        return (hub, try await gate.requireListener(context.caller, on: await hub.record))
    }

    /// The station, when the caller may edit its schedule (the owner and
    /// co-DJs; a show's host may not, so a host can't stretch their own show),
    /// and whether the caller is its owner (who alone names hosts).
    private func editing(_ context: AppRequestContext) async throws -> (hub: StationHub, isOwner: Bool) {
        guard context.caller.person != nil else {
            throw APIError(.unauthorized, code: .signInRequired, "Sign in to edit the schedule.")
        }
        let hub = try await directory.hub(context)
        let record = await hub.record
        let verdict = try await gate.verdict(context.caller, on: record)
        try StationGate.check(verdict.decision)
        guard verdict.allows(.editSchedule) else {
            throw APIError(.forbidden, code: .forbidden, "Only the station's owner and co-DJs edit its schedule.")
        }
        return (hub, verdict.role == .owner)
    }

    /// The `{showID}` of this station, or a 404.
    private func show(_ context: AppRequestContext, on stationID: StationID) async throws -> Show {
        let id = try context.id("showID")
        guard let show = try await schedule.show(id: id), show.stationID == stationID else {
            throw APIError.notFound("No show with id \(id) on this station.")
        }
        return show
    }
}

/// Hosts' handles and names, read once per request.
struct HostNames {
    let people: any PeopleRepository
    private var cache: [String: HostView?] = [:]

    init(people: any PeopleRepository) {
        self.people = people
    }

    /// The show's hosts who still have accounts, in its order.
    mutating func hosts(of show: Show) async throws -> [HostView] {
        var views: [HostView] = []
        for id in show.hostIDs {
            if let view = try await host(id) { views.append(view) }
        }
        return views
    }

    mutating func host(_ id: String) async throws -> HostView? {
        if let known = cache[id] { return known }
        let view = try await people.person(id: id).map { HostView(handle: $0.handle ?? "", displayName: $0.displayName) }
        cache[id] = view
        return view
    }
}
