import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WavelengthCore
import WavelengthWire

/// The band is shared by everyone on the server: one account can't take it,
/// and a station whose code was taken back says so and gets a new one.
@Suite("The frequency band", .timeLimit(.minutes(5)))
struct FrequencyBandTests {
    /// 308 code-protected stations from one account used to take every code
    /// on the band. Twenty at once get past no limit now.
    @Test func oneAccountCannotHoardTheBand() async throws {
        let server = try await TestServer.make { $0.stationsPerAccount = 4 }
        try await server.application().test(.router) { client in
            let hoarder = try await client.signUp()
            let statuses = try await withThrowingTaskGroup(of: (HTTPResponse.Status, String?).self) { group in
                for n in 0..<20 {
                    group.addTask {
                        let response = try await client.send(
                            "/api/stations", .post, as: hoarder,
                            body: CreateStationRequest(name: "Hoard \(n)", visibility: .code))
                        return (response.status, response.errorCode)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            // The own station plus three more; every other request is told why.
            #expect(statuses.count { $0.0 == .created } == 3)
            #expect(statuses.count { $0.0 == .forbidden && $0.1 == "station_limit" } == 17)
            // Everyone else still gets a station and a frequency.
            let next = try await client.signUp()
            let party = try await client.send(
                "/api/stations", .post, as: next, body: CreateStationRequest(name: "Party", visibility: .code))
            #expect(party.status == .created)
            #expect(try party.decode(CreateStationResponse.self).station.frequency != nil)
        }
    }

    /// With the band full, a new station takes the code of the one quiet
    /// longest. That station showed the code it no longer had until a
    /// restart; now it shows none at once, and gets a new code (taken back
    /// in turn) when someone tunes in by its permanent link.
    @Test func aStationWhoseCodeWasTakenBackShowsNoneAndGetsOneWhenTunedIn() async throws {
        let server = try await TestServer.make { $0.frequencyBand = FrequencyBand(tiers: [["90.1", "90.3"]]) }
        let first = try server.firstStation().id
        try await server.application().test(.live) { client in
            let before = try await client.send("/api/stations/\(first)", .get).decode(StationView.self)
            let firstCode = try #require(before.frequency)
            _ = try await client.signUp()  // the band's other code
            let latecomer = try await client.signUp()  // takes the first station's code
            let taken = try await client.send("/api/stations/\(latecomer.stationID)", .get).decode(StationView.self)
            #expect(taken.frequency == firstCode)
            let after = try await client.send("/api/stations/\(first)", .get).decode(StationView.self)
            #expect(after.frequency == nil)
            #expect(try await client.send("/api/frequencies/\(firstCode)", .get).decode(StationView.self).id
                == latecomer.stationID)

            let listener = LiveClient(port: client.port!, path: "/api/stations/\(first)/live?v=1")
            _ = try await listener.snapshot()
            let onAir = try await client.send("/api/stations/\(first)", .get).decode(StationView.self)
            let newCode = try #require(onAir.frequency)
            #expect(try await client.send("/api/frequencies/\(newCode)", .get).decode(StationView.self).id == first)
            listener.close()
            await listener.closed()
        }
    }
}
