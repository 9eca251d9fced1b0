import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WavelengthCore
import WavelengthWire

@testable import WavelengthServer

/// Defects a new user tripped over (issue 9, section 1), each pinned here.
@Suite("What a new user trips over", .timeLimit(.minutes(5)))
struct NewUserFixTests {
    // MARK: Item 1: `+` in a query string is a space

    @Test func formQueryTreatsPlusAsASpace() {
        #expect(FormQuery.value(named: "album", in: "artist=Nordlys+Trio&album=Fjord+Loops") == "Fjord Loops")
        #expect(FormQuery.value(named: "artist", in: "artist=Nordlys%20Trio") == "Nordlys Trio")
        #expect(FormQuery.value(named: "q", in: "q=a%2Bb") == "a+b")
        #expect(FormQuery.value(named: "q", in: "q=%zz") == "%zz")
        #expect(FormQuery.value(named: "q", in: "q") == "")
        #expect(FormQuery.value(named: "q", in: "other=1") == nil)
        #expect(FormQuery.value(named: "q", in: nil) == nil)
    }

    @Test func albumTracksAreFoundWhenSpacesAreWrittenAsPlus() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let plus = try await client.execute(
                uri: "/api/library/tracks?artist=Studio+Tapes&album=Odd+Formats", method: .get
            ).decode([TrackSummary].self)
            let percent = try await client.execute(
                uri: "/api/library/tracks?artist=Studio%20Tapes&album=Odd%20Formats", method: .get
            ).decode([TrackSummary].self)
            #expect(plus.count == 1)
            #expect(plus.map(\.id) == percent.map(\.id))
            let albums = try await client.execute(uri: "/api/library/albums?artist=Studio+Tapes", method: .get)
                .decode([AlbumSummary].self)
            #expect(albums.map(\.title) == ["Odd Formats"])
            let search = try await client.execute(uri: "/api/library/search?q=reel+to", method: .get)
                .decode(SearchResponse.self)
            #expect(search.query == "reel to")
            #expect(search.tracks.contains { $0.title == "Reel To Reel" })
        }
    }

    // MARK: Item 2: code-protected gets a code at once; the frequency stays

    @Test func turningCodeProtectedMakesACodeAndKeepsTheFrequency() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let host = try await client.signUp()
            let station = "/api/stations/\(host.stationID)"
            // A public station with a frequency: "change code" leaves it be.
            let given = try await client.send("\(station)/code", .post, as: host).decode(CodeView.self)
            let frequency = try #require(given.frequency)
            let again = try await client.send("\(station)/code", .post, as: host).decode(CodeView.self)
            #expect(again.frequency == frequency)
            #expect(again.accessCode == nil)

            let patched = try await client.send(station, .patch, as: host, body: StationSettingsPatch(visibility: .code))
            #expect(patched.status == .ok)
            #expect(try patched.decode(StationView.self).frequency == frequency)
            let code = try await client.send("\(station)/code", .get, as: host).decode(CodeView.self)
            #expect(code.frequency == frequency)
            #expect(AccessCode.isWellFormed(code.accessCode ?? ""))

            // A guest gets in with that frequency and code.
            let guest = try await client.guest("Guest")
            let joined = try await client.send(
                "/api/frequencies/\(frequency)/join", .post, as: guest, body: JoinRequest(accessCode: code.accessCode))
            #expect(joined.status == .ok)

            // On a code-protected station, "change code" still rotates both.
            let rotated = try await client.send("\(station)/code", .post, as: host).decode(CodeView.self)
            #expect(AccessCode.isWellFormed(rotated.accessCode ?? ""))
            #expect(rotated.accessCode != code.accessCode || rotated.frequency != frequency)
        }
    }

    // MARK: Item 6: the dial tells quiet stations from those on the air

    @Test func theDialListsQuietPublicStationsAfterFriendsAndNeverAsOnTheAir() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let other = try await client.signUp()
            let newcomer = try await client.signUp()
            let signedIn = try await client.send("/api/dial", .get, as: newcomer).decode(DialView.self)
            #expect(signedIn.sections.first?.kind == "own")
            let quiet = try #require(signedIn.sections.first { $0.kind == "quiet" })
            #expect(quiet.stations.contains { $0.id == other.stationID })
            #expect(quiet.stations.allSatisfy { !$0.onAir })
            #expect(signedIn.sections.last?.kind == "quiet")

            let signedOut = try await client.send("/api/dial", .get).decode(DialView.self)
            for section in signedOut.sections where section.kind == "discover" {
                #expect(section.stations.allSatisfy { $0.onAir })
            }
            let outQuiet = try #require(signedOut.sections.first { $0.kind == "quiet" })
            #expect(outQuiet.stations.contains { $0.id == newcomer.stationID })
        }
    }

    // MARK: Item 11: the owner adds a co-DJ by handle

    @Test func theOwnerAddsACoDJByHandle() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let owner = try await client.signUp()
            let friend = try await client.signUp()
            let station = "/api/stations/\(owner.stationID)"
            let members = try await client.send(
                "\(station)/codjs", .post, as: owner, body: CoDJRequest(handle: "@" + friend.person.handle!.uppercased())
            ).decode([MemberView].self)
            #expect(members.contains { $0.person.id == friend.id && $0.role == .codj })
            let access = try await client.send("\(station)/access", .get, as: friend).decode(StationAccess.self)
            #expect(access.role == .codj)

            let unknown = try await client.send("\(station)/codjs", .post, as: owner, body: CoDJRequest(handle: "nobody_here"))
            #expect(unknown.status == .notFound)
            let bad = try await client.send("\(station)/codjs", .post, as: owner, body: CoDJRequest(handle: "<b>"))
            #expect(bad.status == .badRequest)
            #expect(bad.errorCode == "invalid_handle")
            let himself = try await client.send(
                "\(station)/codjs", .post, as: owner, body: CoDJRequest(handle: owner.person.handle!))
            #expect(himself.errorCode == "is_owner")
            let byFriend = try await client.send("\(station)/codjs", .post, as: friend, body: CoDJRequest(handle: owner.person.handle!))
            #expect(byFriend.status == .forbidden)
        }
    }
}
