import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import WavelengthCore
import WavelengthStore
import WavelengthWire

/// What a station played and who heard it: "what was on at 9:41?", text
/// search over its plays, a day's playlist as CSV or M3U, and the audience
/// series for its studio screen.
struct HistoryController {
    let directory: StationDirectory
    let history: any HistoryRepository
    let catalog: LibraryCatalog
    let gate: StationGate
    let clock: any ServerClock

    /// The most plays one export holds, and the longest span it covers.
    static let exportLimit = 5_000
    static let exportSpan: EpochMillis = 31 * 86_400_000
    /// What an export spans when it is given one end or none.
    static let defaultSpan: EpochMillis = 86_400_000

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/api/stations/{id}/history", use: plays)
        router.get("/api/stations/{id}/history.csv", use: csv)
        router.get("/api/stations/{id}/history.m3u", use: m3u)
        router.get("/api/stations/{id}/audience", use: audience)
    }

    /// Plays, newest first: `at` (the one playing then), or paged with
    /// `before`, from `from`, matching `q`.
    @Sendable func plays(_ request: Request, context: AppRequestContext) async throws -> [EntryView] {
        let hub = try await listening(context)
        let zone = try InstantQuery.zone(try request.stringQuery("tz", maxLength: 64))
        if let at = try request.instantQuery("at", zone: zone) {
            var play = try await history.play(stationID: hub.id, at: at)
            if play == nil { play = await hub.entry(at: at) }
            return try await views(play.map { [$0] } ?? [])
        }
        let search = PlaySearch(
            before: try request.instantQuery("before", zone: zone), from: try request.instantQuery("from", zone: zone),
            text: try request.stringQuery("q", maxLength: 200).flatMap { $0.isEmpty ? nil : $0 },
            limit: try request.intQuery("limit", default: 20, range: 1...200))
        return try await views(try await history.plays(stationID: hub.id, matching: search))
    }

    /// A span's playlist as CSV: one row per play, oldest first.
    @Sendable func csv(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (name, rows) = try await export(request, context)
        var text = "start,end,artist,title,album,source,listeners\r\n"
        for row in rows {
            let fields = [
                Self.iso(row.start), Self.iso(row.expiration), row.track.artist, row.track.title, row.track.album,
                row.source.rawValue, row.listeners.map(String.init) ?? "",
            ]
            text += fields.map(Self.csvField).joined(separator: ",") + "\r\n"
        }
        return Self.file(text, type: "text/csv; charset=utf-8", name: "\(name).csv")
    }

    /// A span's playlist as M3U, pointing at each track's audio here.
    @Sendable func m3u(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (name, rows) = try await export(request, context)
        var text = "#EXTM3U\n"
        for row in rows {
            let title = Self.oneLine([row.track.artist, row.track.title].filter { !$0.isEmpty }.joined(separator: " - "))
            text += "#EXTINF:\(row.durationMs / 1000),\(title)\n\(row.track.audioURL)\n"
        }
        return Self.file(text, type: "audio/x-mpegurl; charset=utf-8", name: "\(name).m3u")
    }

    /// The plays of `day` (in `tz`) or of `from..<to`, oldest first.
    private func export(_ request: Request, _ context: AppRequestContext) async throws -> (String, [EntryView]) {
        let hub = try await listening(context)
        let zone = try InstantQuery.zone(try request.stringQuery("tz", maxLength: 64))
        let from: EpochMillis, to: EpochMillis, name: String
        if let day = try request.stringQuery("day", maxLength: 10) {
            guard day.wholeMatch(of: /\d{4}-\d{2}-\d{2}/) != nil, let start = InstantQuery.parse(day, zone: zone) else {
                throw APIError.badRequest("day must be a date like 2026-11-24.")
            }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let next = calendar.date(byAdding: .day, value: 1, to: Date(timeIntervalSince1970: Double(start) / 1000))!
            (from, to, name) = (start, EpochMillis(next.timeIntervalSince1970 * 1000), "\(hub.id)-\(day)")
        } else {
            // One of them alone spans a day from it; neither, the last day.
            let start = try request.instantQuery("from", zone: zone), end = try request.instantQuery("to", zone: zone)
            let day = Self.defaultSpan
            switch (start, end) {
            case (let start?, let end?): (from, to) = (start, end)
            case (let start?, nil): (from, to) = (start, min(start, .max - day) + day)
            case (nil, let end?): (from, to) = (max(end, .min + day) - day, end)
            case (nil, nil): (from, to) = (clock.now() - day, clock.now())
            }
            name = "\(hub.id)-history"
        }
        let (span, overflow) = to.subtractingReportingOverflow(from)
        guard from < to, !overflow, span <= Self.exportSpan else {
            throw APIError.badRequest("An export covers from one instant to a later one, 31 days at most.")
        }
        let plays = try await history.plays(
            stationID: hub.id, matching: PlaySearch(before: to, from: from, limit: Self.exportLimit))
        return (name, try await views(plays.reversed()))
    }

    /// The studio's numbers: the count now, the last `minutes` minutes
    /// (60 by default), and today so far in `tz`. Owners and co-DJs only.
    @Sendable func audience(_ request: Request, context: AppRequestContext) async throws -> AudienceView {
        let hub = try await directory.hub(context)
        let role = try await gate.requireListener(context.caller, on: await hub.record)
        guard role >= .codj else {
            throw APIError(.forbidden, code: .forbidden, "Only the station's owner and co-DJs see its audience figures.")
        }
        let span = try request.intQuery("minutes", default: 60, range: 1...1_440)
        let zone = try InstantQuery.zone(try request.stringQuery("tz", maxLength: 64))
        let now = clock.now()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let midnight = EpochMillis(
            calendar.startOfDay(for: Date(timeIntervalSince1970: Double(now) / 1000)).timeIntervalSince1970 * 1000)
        let since = min(midnight, ListenerMinute.start(of: now) - EpochMillis(span - 1) * ListenerMinute.length)
        // With the minute still open (it is saved when it ends), so the
        // chart and today's figures include now.
        let minutes = ListenerMinute.merged(
            try await history.audience(stationID: hub.id, from: since, to: now + ListenerMinute.length)
                + (await hub.unsavedAudience))
        let recent = minutes.filter { $0.minute > now - EpochMillis(span) * ListenerMinute.length }
        return AudienceView(
            counts: await hub.audience, minutes: recent, today: AudienceDay(minutes: minutes.filter { $0.minute >= midnight }),
            serverTime: now)
    }

    private func listening(_ context: AppRequestContext) async throws -> StationHub {
        let hub = try await directory.hub(context)
        _ = try await gate.requireListener(context.caller, on: await hub.record)
        return hub
    }

    private func views(_ plays: some Sequence<Play>) async throws -> [EntryView] {
        try await catalog.entryViews(Array(plays))
    }

    static func iso(_ instant: EpochMillis) -> String {
        Date(timeIntervalSince1970: Double(instant) / 1000).formatted(.iso8601)
    }

    /// A CSV field: quoted when it holds a comma, quote or line break; a
    /// leading =, +, - or @ is defused so a spreadsheet never runs a tag as
    /// a formula.
    static func csvField(_ text: String) -> String {
        var text = text
        if let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) { text = "'" + text }
        guard text.unicodeScalars.contains(where: { ",\"\r\n".unicodeScalars.contains($0) }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A line of an M3U: a tag can't start a line of its own.
    static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline || $0 == "\0" ? " " : $0 })
    }

    static func file(_ text: String, type: String, name: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.contentDisposition] = "attachment; filename=\"\(name)\""
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
