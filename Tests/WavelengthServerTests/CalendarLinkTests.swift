import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import WavelengthCore
import WavelengthWire

@testable import WavelengthServer

/// A station that isn't public serves its calendar feeds to calendar apps,
/// which can't sign in, only through a listener's own calendar link: a
/// token in the URL, a few per person (one per calendar), revocable, and
/// no use once its holder may no longer listen.
@Suite("Calendar links for private stations", .timeLimit(.minutes(5)))
struct CalendarLinkTests {
    @Test func aPrivateStationsFeedsOpenOnlyThroughALiveCalendarLink() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let party = try await PrivateStationTests.party(client)
            let station = party.station.id
            let show = try await client.send(
                "/api/stations/\(station)/shows", .post, as: party.host, body: ScheduleRouteTests.nightOwls()
            ).decode(ShowView.self)
            let feed = "/api/stations/\(station)/schedule.ics"

            // A calendar app has no session: the bare feed is closed, and
            // the schedule says where to ask for a link.
            #expect(try await client.execute(uri: feed, method: .get).status == .unauthorized)
            let view = try await client.send("/api/stations/\(station)/schedule", .get, as: party.host).decode(ScheduleView.self)
            #expect(view.calendarLinkURL == "/api/stations/\(station)/calendar-link")
            let page = try await client.send("/api/stations/\(station)/shows/\(show.id)", .get, as: party.host)
            #expect(try page.decode(ShowPage.self).calendarLinkURL == view.calendarLinkURL)
            let stranger = try await client.guest("Stranger")
            #expect(try await client.send("/api/stations/\(station)/calendar-link", .post, as: stranger).status == .forbidden)

            // A guest who joined with the code gets a link; the token opens
            // the station's feed and each show's.
            let guest = try await client.guest("Guest")
            let joined = try await PrivateStationTests.join(
                client, guest, frequency: party.code.frequency, code: party.code.accessCode)
            #expect(joined.status == .ok)
            let link = try await client.send("/api/stations/\(station)/calendar-link", .post, as: guest).decode(CalendarLink.self)
            let token = try #require(link.token)
            #expect(link.schedule == "\(feed)?token=\(token)")
            let read = try await client.execute(uri: link.schedule, method: .get)
            #expect(read.status == .ok)
            #expect(read.headers[.contentType] == "text/calendar; charset=utf-8")
            #expect(String(buffer: read.body).contains("UID:show-\(show.id)@wavelength"))
            let showFeed = try await client.execute(uri: "\(show.calendarURL)?token=\(token)", method: .get)
            #expect(showFeed.status == .ok)

            // Its purpose only: a stream link's token opens no feed.
            let stream = try await client.send("/api/stations/\(station)/stream-link", .post, as: guest).decode(StreamLink.self)
            let crossed = try await client.execute(uri: "\(feed)?token=\(try #require(stream.token))", method: .get)
            #expect(crossed.status == .forbidden)
            #expect(try await client.execute(uri: "\(feed)?token=made-up", method: .get).status == .forbidden)
            // And the stream link still plays after a calendar link is made.
            #expect(try await client.execute(uri: "/stream/\(station).m3u?token=\(stream.token!)", method: .get).status == .ok)

            // One link a calendar, ten at most: the eleventh revokes the oldest.
            var later: [String] = []
            for _ in 0..<ScheduleController.calendarLinksKept {
                let next = try await client.send("/api/stations/\(station)/calendar-link", .post, as: guest)
                later.append(try #require(try next.decode(CalendarLink.self).token))
            }
            #expect(try await client.execute(uri: link.schedule, method: .get).status == .forbidden)
            for kept in later {
                #expect(try await client.execute(uri: "\(feed)?token=\(kept)", method: .get).status == .ok)
            }

            // Kicked, the guest's links open nothing any more.
            let kicked = try await client.send(
                "/api/stations/\(station)/kick", .post, as: party.host, body: PersonIDRequest(personID: guest.id))
            #expect(kicked.status == .noContent)
            #expect(try await client.execute(uri: "\(feed)?token=\(later[0])", method: .get).status == .forbidden)

            // The host revokes theirs all at once.
            let own = try await client.send("/api/stations/\(station)/calendar-link", .post, as: party.host).decode(CalendarLink.self)
            #expect(try await client.execute(uri: own.schedule, method: .get).status == .ok)
            #expect(try await client.send("/api/stations/\(station)/calendar-link", .delete, as: party.host).status == .noContent)
            #expect(try await client.execute(uri: own.schedule, method: .get).status == .forbidden)
            #expect(try await client.send("/api/stations/\(station)/calendar-link", .delete, as: party.host).status == .notFound)
        }
    }

    @Test func aPublicStationsFeedNeedsNoToken() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let host = try await client.signUp()
            let station = host.stationID
            let view = try await client.send("/api/stations/\(station)/schedule", .get, as: host).decode(ScheduleView.self)
            #expect(view.calendarLinkURL == nil)
            let link = try await client.send("/api/stations/\(station)/calendar-link", .post, as: host).decode(CalendarLink.self)
            #expect(link == CalendarLink(schedule: "/api/stations/\(station)/schedule.ics", token: nil))
            #expect(try await client.execute(uri: link.schedule, method: .get).status == .ok)
            // Asking as nobody, or with a token that names nobody, is refused.
            let anonymous = try await client.execute(uri: "/api/stations/\(station)/calendar-link", method: .post)
            #expect(anonymous.status == .unauthorized)
            let badToken = try await client.execute(
                uri: "/api/stations/\(station)/calendar-link", method: .post, headers: [.authorization: "Bearer nonsense"])
            #expect(badToken.status == .unauthorized)
        }
    }
}
