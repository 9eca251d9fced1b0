import ArgumentParser
import Foundation
import WavelengthClient
import WavelengthCore
import WavelengthWire

/// The party from the command line: see the requests, ask for a song, vote,
/// and thumb the song playing.
struct PartyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "party",
        abstract:
            "A station's party or lobby: list the requests or the ballot, request (or suggest) a song (--request), "
            + "vote on a request (--vote) or on the ballot (--ballot N), thumb the song playing (--thumb up|down|clear).")

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

    @Option(help: "In a lobby: vote for candidate N (1, 2, …) of the open ballot, as the list shows it.")
    var ballot: Int?

    @Option(help: "Thumb the song playing: up, down, or clear to take it back. Works in every mode.")
    var thumb: ThumbChoice?

    enum ThumbChoice: String, ExpressibleByArgument, CaseIterable {
        case up, down, clear
    }

    func validate() throws {
        if [request != nil, vote != nil, ballot != nil, thumb != nil].filter({ $0 }).count > 1 {
            throw ValidationError("One of --request, --vote, --ballot and --thumb at a time.")
        }
        if let ballot, !(1...Ballot.maxCandidates).contains(ballot) {
            throw ValidationError("--ballot takes a candidate's number, 1 to \(Ballot.maxCandidates).")
        }
        if (request != nil || vote != nil || ballot != nil || thumb != nil) && !options.named {
            throw ValidationError("Requests, votes and thumbs need a name: --handle (a user) or --guest NAME.")
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
            } else if let ballot {
                try await voteOnBallot(ballot, on: id, account: account)
            } else if let thumb {
                try await thumbPlaying(thumb, on: id, account: account)
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

    private func voteOnBallot(_ number: Int, on id: String, account: AccountClient) async throws {
        let party: PartyView = try await account.call("GET", "/api/stations/\(id)/party")
        guard party.mode == .lobby else { throw Refused(description: "This station isn't a lobby right now.") }
        guard let ballot = party.ballot, ballot.elected == nil else {
            throw Refused(description: "There's no vote open right now: the next opens when the next song starts.")
        }
        guard number <= ballot.candidates.count else {
            throw Refused(description: "This ballot has \(ballot.candidates.count) candidates.")
        }
        let track = ballot.candidates[number - 1].track
        let _: CommandAck = try await account.call(
            "POST", "/api/stations/\(id)/commands",
            body: CommandRequest(id: UUID().uuidString, command: .ballotVote(ballotID: ballot.id, trackID: track.id)))
        print("Voted for \(track.title) — \(track.artist).")
    }

    private func thumbPlaying(_ choice: ThumbChoice, on id: String, account: AccountClient) async throws {
        let timeline: TimelineWindow = try await account.call("GET", "/api/stations/\(id)/timeline?upNext=0")
        guard let playing = timeline.current else {
            throw Refused(description: "Nothing is playing right now: the station is quiet until someone listens.")
        }
        let up: Bool? = choice == .clear ? nil : choice == .up
        let _: CommandAck = try await account.call(
            "POST", "/api/stations/\(id)/commands",
            body: CommandRequest(id: UUID().uuidString, command: .thumb(entryID: playing.id, up: up)))
        let song = "\(playing.track.title) — \(playing.track.artist)"
        print(choice == .clear ? "Thumb taken back from \(song)." : "Thumbs \(choice.rawValue) for \(song).")
    }

    private func list(_ id: String, account: AccountClient) async throws {
        let party: PartyView = try await account.call("GET", "/api/stations/\(id)/party")
        if party.mode == .lobby {
            listBallot(party)
            return
        }
        guard party.mode == .requests else {
            print("This station isn't taking requests (the DJ picks).")
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

extension PartyCommand {
    fileprivate func listBallot(_ party: PartyView) {
        guard let ballot = party.ballot else {
            print("No vote open yet: the next opens when the next song starts.")
            return
        }
        if let elected = ballot.elected, let winner = ballot.candidates.first(where: { $0.track.id == elected }) {
            print("The vote is in: \(winner.track.title) — \(winner.track.artist) plays next.")
        } else {
            let seconds = max(0, (ballot.closesAt - Int64(Date().timeIntervalSince1970 * 1000)) / 1000)
            print("Vote for the next song (closes in about \(seconds) s):")
        }
        for (index, candidate) in ballot.candidates.enumerated() {
            let votes = candidate.votes.map { String(format: " · %.2f votes", $0) } ?? ""
            let by = candidate.suggestions > 0 ? "suggested by \(candidate.suggestions)" : "the robot's pick"
            let mine = party.standing?.vote == candidate.track.id ? "  ← your vote" : ""
            print("\(index + 1). \(candidate.track.title) — \(candidate.track.artist) (\(by)\(votes))\(mine)")
        }
        if let standing = party.standing { print(standing.explanation) }
    }
}

/// The server said no (or found nothing): said plainly, without the usage.
private struct Refused: Error, CustomStringConvertible {
    var description: String
}
