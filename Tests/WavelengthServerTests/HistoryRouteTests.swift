import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import WavelengthCore
import WavelengthSQLite
import WavelengthWire

@testable import WavelengthServer

/// "What was on at 9:41?", search over plays, a day's playlist, and the
/// studio's audience figures, over HTTP.
@Suite("History and audience routes")
struct HistoryRouteTests {
    /// 2026-11-24T21:40:00Z.
    static let t0: EpochMillis = 1_795_478_400_000 + 21 * 3_600_000 + 40 * 60_000

    /// Two plays in the first station's history: "Reel To Reel" at 21:40
    /// UTC for 3 minutes with 4 listeners, then another for 3 minutes with 2.
    static func seed(_ server: TestServer, _ client: some TestClientProtocol) async throws -> (String, TrackSummary, TrackSummary) {
        let station = try server.firstStation().id
        let reel = try await client.firstTrack(matching: "Reel")
        let other = try await client.firstTrack(matching: "Fjord")
        let loaded = try #require(try await server.storage.loadStation(id: station))
        let plays = [
            TimelineEntry(id: "e-reel", trackID: reel.id, start: t0, duration: 180_000, source: .dj),
            TimelineEntry(id: "e-other", trackID: other.id, start: t0 + 180_000, duration: 180_000, source: .robot),
        ]
        for (entry, listeners) in zip(plays, [4, 2]) {
            var save = StationSave(state: loaded.state, played: [entry], command: nil)
            save.listeners = listeners
            try await server.storage.saveStation(save)
        }
        return (station, reel, other)
    }

    static func plays(_ client: some TestClientProtocol, _ station: String, _ query: String) async throws -> [EntryView] {
        let response = try await client.execute(uri: "/api/stations/\(station)/history?\(query)", method: .get)
        #expect(response.status == .ok, "\(query): \(String(buffer: response.body))")
        return try response.decode([EntryView].self)
    }

    @Test func whatWasOnThenInAnyZoneOrOffset() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let (station, reel, other) = try await Self.seed(server, client)
            for query in [
                "at=2026-11-24T21:41", "at=2026-11-24T21:41:30Z", "at=2026-11-24T22:41:30%2B01:00",
                "at=2026-11-24T13:41&tz=America/Los_Angeles", "at=\(Self.t0 + 60_000)",
            ] {
                let found = try await Self.plays(client, station, query)
                #expect(found.map(\.track.id) == [reel.id], "\(query)")
                #expect(found.first?.listeners == 4)
            }
            #expect(try await Self.plays(client, station, "at=2026-11-24T21:44").map(\.track.id) == [other.id])
            #expect(try await Self.plays(client, station, "at=2026-11-24T21:39").isEmpty)
        }
    }

    @Test func searchAndPagingRunOverThePlays() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let (station, reel, other) = try await Self.seed(server, client)
            #expect(try await Self.plays(client, station, "q=reel").map(\.track.id) == [reel.id])
            #expect(try await Self.plays(client, station, "q=studio%20ree").map(\.track.id) == [reel.id])
            #expect(try await Self.plays(client, station, "q=zzzz").isEmpty)
            #expect(try await Self.plays(client, station, "q=%22%2A").isEmpty)
            let all = try await Self.plays(client, station, "from=2026-11-24&limit=10")
            #expect(all.map(\.track.id) == [other.id, reel.id])
            #expect(all.map(\.source) == [.robot, .dj])
            #expect(try await Self.plays(client, station, "before=\(Self.t0 + 180_000)").map(\.track.id) == [reel.id])
        }
    }

    @Test func aDaysPlaylistExportsAsCSVAndM3U() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let (station, reel, _) = try await Self.seed(server, client)
            let csv = try await client.execute(uri: "/api/stations/\(station)/history.csv?day=2026-11-24&tz=UTC", method: .get)
            #expect(csv.status == .ok)
            #expect(csv.headers[.contentType] == "text/csv; charset=utf-8")
            #expect(csv.headers[.contentDisposition]?.hasPrefix("attachment;") == true)
            let rows = String(buffer: csv.body).components(separatedBy: "\r\n").filter { !$0.isEmpty }
            #expect(rows.count == 3)
            #expect(rows[0] == "start,end,artist,title,album,source,listeners")
            #expect(rows[1] == "2026-11-24T21:40:00Z,2026-11-24T21:43:00Z,Studio Tapes,Reel To Reel,Odd Formats,dj,4")
            // The day in Oslo began an hour earlier and holds the same plays.
            let oslo = try await client.execute(uri: "/api/stations/\(station)/history.csv?day=2026-11-24&tz=Europe/Oslo", method: .get)
            #expect(String(buffer: oslo.body).components(separatedBy: "\r\n").filter { !$0.isEmpty }.count == 3)
            let nextDay = try await client.execute(uri: "/api/stations/\(station)/history.csv?day=2026-11-25&tz=UTC", method: .get)
            #expect(String(buffer: nextDay.body) == "start,end,artist,title,album,source,listeners\r\n")

            let m3u = try await client.execute(uri: "/api/stations/\(station)/history.m3u?day=2026-11-24", method: .get)
            #expect(m3u.status == .ok)
            let lines = String(buffer: m3u.body).split(separator: "\n").map(String.init)
            #expect(lines.first == "#EXTM3U")
            #expect(lines[1] == "#EXTINF:180,Studio Tapes - Reel To Reel")
            #expect(lines[2] == reel.audioURL)
        }
    }

    @Test func badHistoryQuestionsGetClearErrors() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let station = try server.firstStation().id
            for query in [
                "history?at=yesterday", "history?at=2026-02-31T10:00", "history?at=2026-11-24T25:00",
                "history?at=2026-11-24&tz=Mars/Olympus", "history?q=\(String(repeating: "a", count: 201))",
                "history.csv?day=24.11.2026", "history.csv?from=2026-11-25&to=2026-11-24",
                "history.csv?from=2026-01-01&to=2026-03-01", "history.m3u?from=-9223372036854775808&to=9223372036854775807",
                "audience?minutes=0",
            ] {
                let response = try await client.execute(uri: "/api/stations/\(station)/\(query)", method: .get)
                #expect(response.status == .badRequest || query.hasPrefix("audience") && response.status == .forbidden, "\(query)")
                #expect(response.errorCode != nil, "\(query)")
            }
            // An export with no span, or one end, covers a day.
            for query in ["history.csv", "history.m3u?from=2026-11-24", "history.csv?to=2026-11-24T12:00"] {
                let response = try await client.execute(uri: "/api/stations/\(station)/\(query)", method: .get)
                #expect(response.status == .ok, "\(query)")
            }
        }
    }

    @Test func theAudienceIsForTheStudioOnly() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let host = try await client.signUp()
            let station = host.stationID
            let now = server.services.clock.now()
            let minute = ListenerMinute.start(of: now) - 60_000
            try await server.storage.recordAudience(
                stationID: station,
                minutes: [ListenerMinute(minute: minute, peak: 3, listenerMillis: 120_000, departures: 1, stayMillis: 90_000)])
            // Recorded again (a station reloaded mid-minute): merged, not replaced.
            try await server.storage.recordAudience(
                stationID: station,
                minutes: [ListenerMinute(minute: minute, peak: 2, listenerMillis: 60_000, departures: 1, stayMillis: 30_000)])

            let stranger = try await client.send("/api/stations/\(station)/audience", .get, as: try await client.signUp())
            #expect(stranger.status == .forbidden)
            let owner = try await client.send("/api/stations/\(station)/audience?minutes=60", .get, as: host)
            #expect(owner.status == .ok)
            let view = try owner.decode(AudienceView.self)
            #expect(view.listeners == 0)
            #expect(view.minutes == [ListenerMinute(minute: minute, peak: 3, listenerMillis: 180_000, departures: 2, stayMillis: 120_000)])
            #expect(view.today.peak == 3 || ListenerMinute.start(of: now) % 86_400_000 == 0)
            #expect(view.today.averageStayMs == 60_000 || ListenerMinute.start(of: now) % 86_400_000 == 0)
        }
    }

    @Test func instantsParseAsPeopleWriteThem() throws {
        let utc = TimeZone(identifier: "UTC")!
        #expect(InstantQuery.parse("2026-11-24T21:40", zone: utc) == Self.t0)
        #expect(InstantQuery.parse("2026-11-24 21:40:00", zone: utc) == Self.t0)
        #expect(InstantQuery.parse("2026-11-24T22:40+0100", zone: utc) == Self.t0)
        #expect(InstantQuery.parse("2026-11-24T16:40-05:00", zone: utc) == Self.t0)
        #expect(InstantQuery.parse("2026-11-24", zone: utc) == Self.t0 - (21 * 60 + 40) * 60_000)
        #expect(InstantQuery.parse("2026-11-24T22:40", zone: TimeZone(identifier: "Europe/Oslo")!) == Self.t0)
        // Summer time: Oslo is two hours ahead in July.
        #expect(
            InstantQuery.parse("2026-07-01T12:00", zone: TimeZone(identifier: "Europe/Oslo")!)
                == InstantQuery.parse("2026-07-01T10:00Z", zone: utc))
        for bad in ["", "tomorrow", "2026-13-01", "2026-02-29", "2026-11-24T24:00", "2026-11-24T21:60", "2026-11-24T21:40+25:00",
            String(repeating: "1", count: 41)]
        {
            #expect(InstantQuery.parse(bad, zone: utc) == nil, "\(bad)")
        }
    }

    @Test func csvFieldsCannotBecomeFormulasOrBreakRows() {
        #expect(HistoryController.csvField("Plain") == "Plain")
        #expect(HistoryController.csvField("=HYPERLINK(\"x\")") == "\"'=HYPERLINK(\"\"x\"\")\"")
        #expect(HistoryController.csvField("-1") == "'-1")
        #expect(HistoryController.csvField("a,b") == "\"a,b\"")
        #expect(HistoryController.csvField("two\nlines") == "\"two\nlines\"")
        #expect(HistoryController.oneLine("A\n#EXTINF:1,x") == "A #EXTINF:1,x")
    }
}
