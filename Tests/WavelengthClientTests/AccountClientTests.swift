import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WavelengthServer
import WavelengthWire
@testable import WavelengthClient

@Suite("The SDK's accounts", .timeLimit(.minutes(5)))
struct AccountClientTests {
    @Test func signUpThenDJYourOwnStationWithARefreshingToken() async throws {
        let server = try await LiveServer.make()
        try await buildApplication(server.services).test(.live) { client in
            let url = "http://127.0.0.1:\(client.port!)"
            let account = AccountClient(serverURL: url)
            let handle = "sdk_\(UUID().uuidString.prefix(8).lowercased())"
            let person = try await account.signUp(handle: handle, displayName: "SDK", password: "long enough")
            #expect(person.kind == "user")
            let stationID = try #require(await account.station?.id)
            #expect(await account.accessToken() != nil)

            let sdk = StationClient(
                configuration: ClientConfiguration(
                    serverURL: url, stationID: stationID, accessToken: { await account.accessToken() },
                    personID: person.id))
            var events = sdk.events.makeAsyncIterator()
            await sdk.start()
            let access = try await next(&events) { if case .access = $0 { true } else { false } }
            guard case .access(let role) = access else { return }
            #expect(role == .owner)
            await sdk.stop()

            // A second sign-in, then a wrong password: refused without saying which part was wrong.
            let again = AccountClient(serverURL: url)
            try await again.logIn(handle: handle, password: "long enough")
            await #expect(throws: AccountClient.Failure.refused(
                status: 401, code: "invalid_credentials", message: "That handle and password don't match an account."))
            {
                try await AccountClient(serverURL: url).logIn(handle: handle, password: "not the one")
            }
            // Logging out voids the tokens at once.
            try await again.logOut()
            #expect(await again.accessToken() == nil)
        }
    }
}
