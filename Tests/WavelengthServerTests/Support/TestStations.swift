import Foundation
import Hummingbird
import HummingbirdTesting
import WavelengthWire

/// Station helpers on top of `TestPeople`: naming co-DJs, and raw bodies
/// sent as a person.
extension TestClientProtocol {
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
