import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WavelengthClient
import WavelengthCore
import WavelengthServer
import WavelengthWire

/// The SDK in the room: it posts and hears the chat, learns deletions and
/// reactions, and a message sent offline fails rather than vanishing.
@Suite("Client SDK in the room", .timeLimit(.minutes(5)))
struct ChatClientTests {
    @Test func twoClientsChatReactAndSeeADeletion() async throws {
        let server = try await LiveServer.make()
        try await buildApplication(server.services).test(.live) { client in
            let host = try await client.signUp("Host")
            let ann = try await client.signUp("Ann")
            let url = "http://127.0.0.1:\(client.port!)"
            let hostSDK = StationClient(configuration: ClientConfiguration(serverURL: url, as: host, station: host.stationID))
            let annSDK = StationClient(configuration: ClientConfiguration(serverURL: url, as: ann, station: host.stationID))
            var hostEvents = hostSDK.events.makeAsyncIterator()
            var annEvents = annSDK.events.makeAsyncIterator()
            await hostSDK.start()
            await annSDK.start()
            _ = try await next(&hostEvents) { if case .chatRoom = $0 { true } else { false } }
            _ = try await next(&annEvents) { if case .chatRoom = $0 { true } else { false } }

            let sent = try await annSDK.say("hello, host")
            #expect(sent.text == "hello, host" && sent.person.id == ann.id)
            guard case .chat(let heard) = try await next(&hostEvents, where: { if case .chat = $0 { true } else { false } })
            else { return }
            #expect(heard == sent)
            #expect(await hostSDK.model.chat == [sent])
            await #expect(throws: ClientError.refused(code: "empty_message", message: ChatError.empty.description)) {
                try await annSDK.say("   ")
            }

            await hostSDK.moderate(.delete(messageID: sent.id))
            _ = try await next(&annEvents) { if case .chatDeleted = $0 { true } else { false } }
            #expect(await annSDK.model.chat.isEmpty)

            await annSDK.react("🔥")
            _ = try await next(&hostEvents) { if case .reactions(let view) = $0 { view.totals["🔥"] == 1 } else { false } }
            #expect(await hostSDK.model.reactions?.totals == ["🔥": 1])
            // A reaction off the palette is refused, by its id (or, if the
            // song ended on the way, as one to a song that isn't playing).
            await annSDK.react("🦑", id: "r-odd")
            let refused = try await next(&annEvents) { if case .refused("r-odd", _, _) = $0 { true } else { false } }
            guard case .refused(_, let code, _) = refused else { return }
            #expect(["unknown_reaction", "not_current"].contains(code))

            // Offline, a message fails at once instead of being lost quietly.
            await annSDK.stop()
            await #expect(throws: ClientError.stopped) { try await annSDK.say("anyone?") }
            await hostSDK.stop()
        }
    }
}
