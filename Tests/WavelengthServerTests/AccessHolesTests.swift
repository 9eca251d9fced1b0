import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WavelengthQR
import WavelengthWire

@testable import WavelengthServer

/// Ways into a private station that were never meant to be there.
@Suite("Access holes", .timeLimit(.minutes(5)))
struct AccessHolesTests {
    /// Revoking co-DJ from someone who never was one made them a listening
    /// member of the private station.
    @Test func revokingCoDJFromAStrangerGivesThemNothing() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let party = try await PrivateStationTests.party(client)
            let stranger = try await client.signUp()
            let revoked = try await client.send(
                "/api/stations/\(party.station.id)/codjs/\(stranger.id)", .delete, as: party.host)
            #expect(revoked.status == .ok)
            #expect(try revoked.decode([MemberView].self).allSatisfy { $0.person.id != stranger.id })
            #expect(try await client.send("/api/stations/\(party.station.id)", .get, as: stranger).status == .forbidden)

            // A co-DJ the host named who had never joined: revoked, they are
            // no member again, and the stream link they took as co-DJ opens
            // nothing (it was a listening member's, and kept working, before).
            let codj = try await client.signUp()
            _ = try await client.send("/api/stations/\(party.station.id)/codjs/\(codj.id)", .put, as: party.host)
            let link = try await client.send("/api/stations/\(party.station.id)/stream-link", .post, as: codj).decode(StreamLink.self)
            let token = try #require(link.token)
            #expect(try await client.execute(uri: "/stream/\(party.station.id).m3u?token=\(token)", method: .get).status == .ok)
            let back = try await client.send(
                "/api/stations/\(party.station.id)/codjs/\(codj.id)", .delete, as: party.host
            ).decode([MemberView].self)
            #expect(!back.contains { $0.person.id == codj.id })
            #expect(try await client.send("/api/stations/\(party.station.id)", .get, as: codj).status == .forbidden)
            #expect(try await client.execute(uri: "/stream/\(party.station.id).m3u?token=\(token)", method: .get).status == .forbidden)

            // A member who joined with the code, made co-DJ and revoked, listens again.
            let member = try await client.signUp()
            let joined = try await PrivateStationTests.join(client, member, frequency: party.code.frequency, code: party.code.accessCode)
            #expect(joined.status == .ok)
            _ = try await client.send("/api/stations/\(party.station.id)/codjs/\(member.id)", .put, as: party.host)
            let listening = try await client.send(
                "/api/stations/\(party.station.id)/codjs/\(member.id)", .delete, as: party.host
            ).decode([MemberView].self)
            #expect(listening.first { $0.person.id == member.id }?.role == .listener)
        }
    }

    /// A socket opened while the station was public kept getting updates
    /// after it became code-protected (or invite-only, or followers-only).
    /// Now who no longer qualifies is told and closed; the owner stays.
    @Test(arguments: [StationVisibility.code, .invite, .followers])
    func goingPrivateClosesTheSocketsOfWhoNoLongerQualifies(_ visibility: StationVisibility) async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let host = try await client.signUp()
            let created = try await client.send(
                "/api/stations", .post, as: host, body: CreateStationRequest(name: "Open Mic", visibility: .public)
            ).decode(CreateStationResponse.self).station
            let path = "/api/stations/\(created.id)/live?v=1"
            let stranger = try await client.signUp()
            let anonymous = LiveClient(port: client.port!, path: path)
            let signedIn = LiveClient(port: client.port!, path: path, token: stranger.token)
            let owner = LiveClient(port: client.port!, path: path, token: host.token)
            for socket in [anonymous, signedIn, owner] { _ = try await socket.snapshot() }

            let patched = try await client.send(
                "/api/stations/\(created.id)", .patch, as: host, body: StationSettingsPatch(visibility: visibility))
            #expect(patched.status == .ok)
            for socket in [anonymous, signedIn] {
                let error = try await socket.next { if case .error = $0 { true } else { false } }
                #expect(error == .error(id: nil, code: "not_a_member", message: "This station is private now, and you are not one of its members."))
                await socket.closed()
            }
            // The owner stays connected.
            let stillHere = await owner.closeReason()
            #expect(stillHere == nil)
            owner.close()
            await owner.closed()
        }
    }

    /// `Host: evil.example` with `X-Forwarded-Proto: https` made a QR code
    /// for https://evil.example/…: with `--public-url` the link is that, and
    /// without it a client's `X-Forwarded-Proto` is not believed. The QR
    /// code is compared with one drawn from the link it should hold.
    @Test func invitesQRCodesUseThePublicURLAndTrustNoForwardedHeaders() async throws {
        for publicURL in [String?.none, "https://radio.example.edu"] {
            let server = try await TestServer.make { $0.publicURL = publicURL }
            try await server.application().test(.router) { client in
                let party = try await PrivateStationTests.party(client, visibility: .invite)
                let invite = try await PrivateStationTests.invite(client, to: party)
                let svg = try await client.execute(
                    uri: "/api/invites/\(invite.token)/qr.svg", method: .get,
                    headers: [.init("X-Forwarded-Proto")!: "https"])
                // A router test has no Host: the link falls back to localhost,
                // and stays http, since no trusted proxy said otherwise.
                let expectedLink = (publicURL ?? "http://localhost") + "/#/i/\(invite.token)"
                let expected = try QRCode(text: expectedLink).svg(moduleSize: 8, title: "Invite to Party")
                #expect(String(buffer: svg.body) == expected, "the QR code holds \(expectedLink)")
            }
        }
    }

    /// Behind a configured proxy (the peer is 127.0.0.1 here), the proxy's
    /// `X-Forwarded-Proto: https` is believed: the link is https. From any
    /// other peer it is not (above).
    @Test func aTrustedProxysForwardedProtoMakesTheInviteLinkHTTPS() async throws {
        let server = try await TestServer.make { $0.trustedProxies = ["127.0.0.1"] }
        try await server.application().test(.live) { client in
            let party = try await PrivateStationTests.party(client, visibility: .invite)
            let invite = try await PrivateStationTests.invite(client, to: party)
            for (proto, scheme) in [("https", "https"), ("http", "http")] {
                let svg = try await client.execute(
                    uri: "/api/invites/\(invite.token)/qr.svg", method: .get,
                    headers: [.init("X-Forwarded-Proto")!: proto])
                // The test client sends no Host: the link falls back to localhost.
                let expectedLink = "\(scheme)://localhost/#/i/\(invite.token)"
                let expected = try QRCode(text: expectedLink).svg(moduleSize: 8, title: "Invite to Party")
                #expect(String(buffer: svg.body) == expected, "the QR code holds \(expectedLink)")
            }
        }
    }

    @Test func theClientBehindATrustedProxyIsTheLastUntrustedHop() {
        let proxies: Set<String> = ["10.0.0.2", "10.0.0.3"]
        #expect(ForwardedForMiddleware.client(forwardedFor: ["203.0.113.7"], trusted: proxies) == "203.0.113.7")
        // A client can put anything on the left; the hop the proxy added is on the right.
        #expect(
            ForwardedForMiddleware.client(forwardedFor: ["1.1.1.1, 198.51.100.4, 10.0.0.3"], trusted: proxies)
                == "198.51.100.4")
        #expect(ForwardedForMiddleware.client(forwardedFor: ["10.0.0.2", "10.0.0.3"], trusted: proxies) == nil)
        #expect(ForwardedForMiddleware.client(forwardedFor: [], trusted: proxies) == nil)
    }
}
