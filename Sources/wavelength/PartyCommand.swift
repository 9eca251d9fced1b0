import ArgumentParser
import Foundation
import WavelengthClient
import WavelengthCore
import WavelengthWire

/// The party from the command line: see the requests, ask for a song, vote.
struct PartyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "party",
        abstract: "A station's party: list the requests, request a song (--request), or vote on one (--vote).")

    @Argument(help: "A frequency such as 107.3, or a station id.")
    var station: String

    @OptionGroup var options: StationOptions

    @Option(help: "Search the library and request the first song that matches.")
    var request: String?

    @Option(help: "Vote on this request (its id, as the list shows it).")
    var vote: String?

    @Flag(help: "With --vote: vote the request down (the default is up).")
    var down = false

    @Flag(help: "With --vote: take your vote back.")
    var clear = false


    func validate() throws {
        if request != nil && vote != nil { throw ValidationError("Request or vote, not both at once.") }
        if (request != nil || vote != nil) && !options.named {
            throw ValidationError("Requests and votes need a name: --handle (a user) or --guest NAME.")
        }
        if let request, request.trimmingCharacters(in: .whitespaces).isEmpty || request.count > 200 {
            throw ValidationError("--request needs 1–200 characters to search for.")
        }
    }

    func run() async throws {
        let account = try await options.signIn() ?? AccountClient(serverURL: options.server)
        do {
            let id = try await options.stationID(for: station)
            if let request {
                try await ask(for: request, on: id, account: account)
            } else if let vote {
                let choice: Vote? = clear ? nil : (down ? .down : .up)
                let _: CommandAck = try await account.call(
                    "POST", "/api/stations/\(id)/commands",
                    body: CommandRequest(id: UUID().uuidString, command: .vote(requestID: vote, vote: choice)))
                print(clear ? "Vote taken back." : "Voted \(down ? "down" : "up").")
            }
            try await list(id, account: account)
        } catch AccountClient.Failure.refused(_, let code, let message) {
            throw Refused(description: "\(message) (\(code))")
        }
    }

    private func ask(for query: String, on id: String, account: AccountClient) async throws {
        let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let found: SearchResponse = try await account.call("GET", "/api/library/search?q=\(encoded)&limit=1")
        guard let track = found.tracks.first else { throw Refused(description: "No song matches \"\(query)\".") }
        let _: CommandAck = try await account.call(
            "POST", "/api/stations/\(id)/commands",
            body: CommandRequest(id: UUID().uuidString, command: .request(trackID: track.id)))
        print("Asked for \(track.title) — \(track.artist).")
    }

    private func list(_ id: String, account: AccountClient) async throws {
        let party: PartyView = try await account.call("GET", "/api/stations/\(id)/party")
        guard party.mode == .requests else {
            print("This station isn't taking requests (the \(party.mode.rawValue == "dj" ? "DJ picks" : "lobby votes")).")
            return
        }
        if let skip = party.skip { print("Skip vote: \(skip.votes) of \(skip.needed).") }
        guard !party.requests.isEmpty else {
            print("No requests waiting.")
            return
        }
        for (index, request) in party.requests.enumerated() {
            let counts = request.upvotes.map { " ▲\($0) ▼\(request.downvotes ?? 0)" } ?? ""
            let mine = party.myVotes?[request.id].map { " (you: \($0.rawValue))" } ?? ""
            print("\(index + 1). \(request.track.title) — \(request.track.artist), asked by \(request.requesterName)\(counts)\(mine)  [\(request.id)]")
        }
    }
}

/// The server said no (or found nothing): said plainly, without the usage.
private struct Refused: Error, CustomStringConvertible {
    var description: String
}
