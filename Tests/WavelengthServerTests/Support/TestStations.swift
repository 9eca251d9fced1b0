import Foundation
import Hummingbird
import HummingbirdTesting
import WavelengthCore
import WavelengthWire

/// Station helpers on top of `TestPeople`: naming co-DJs, a frequency
/// nobody holds, and raw bodies sent as a person.
extension TestClientProtocol {
    /// A frequency of the band that no station holds now. Never a fixed
    /// one: every server's first station, and every new account's, is on a
    /// random one of the band's first 103 codes, so a test that took 87.5
    /// or 99.9 for "nobody's" found a station there about once in 103 runs
    /// (and a stream of 99.9 played on, and the test waited for its end).
    /// Held by no *public* station: a code or invite station's frequency
    /// answers this lookup with 404 too.
    func unheldFrequency() async throws -> String {
        for frequency in FrequencyDial.band {
            let response = try await execute(uri: "/api/frequencies/\(frequency)", method: .get)
            if response.status == .notFound { return frequency }
        }
        throw TestFailure("every frequency of the band is held")
    }

    /// As the station's owner, names `person` a co-DJ.
    func makeCoDJ(_ person: TestAccount, on station: String, by owner: TestAccount) async throws {
        let response = try await send("/api/stations/\(station)/codjs/\(person.id)", .put, as: owner)
        guard response.status == .ok else { throw TestFailure("naming a co-DJ answered \(response.status)") }
    }

    /// A request with a raw (possibly malformed) body, as `account` or anonymous.
    func send(_ uri: String, _ method: HTTPRequest.Method, as account: TestAccount?, raw: String?) async throws
        -> TestResponse
    {
        var headers: HTTPFields = [:]
        if let account { headers[.authorization] = "Bearer \(account.token)" }
        if raw != nil { headers[.contentType] = "application/json" }
        return try await execute(uri: uri, method: method, headers: headers, body: raw.map { ByteBuffer(string: $0) })
    }
}
