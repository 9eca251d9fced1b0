import Testing
@testable import WavelengthCore

/// The lobby's ballot: one vote per person, weighted, closed in time, ties
/// broken by the recommender.
struct BallotTests {
    var ballot = Ballot(
        id: "b1", follows: "e1",
        candidates: ["x", "y", "z"].map { Ballot.Candidate(trackID: $0) }, closesAt: 10_000)

    let even: (String) -> Double = { _ in 1 }
    let noOpinion: (TrackID) -> Double = { _ in 0 }

    @Test mutating func onePersonOneVoteAndALaterVoteReplacesIt() throws {
        try ballot.vote(for: "x", by: "ann", at: 1_000)
        try ballot.vote(for: "y", by: "ann", at: 2_000)
        try ballot.vote(for: "x", by: "bob", at: 2_000)
        #expect(ballot.tally(weight: even).map(\.votes) == [1, 1, 0])
    }

    @Test mutating func aVoteAfterTheBallotClosedIsRefused() throws {
        try ballot.vote(for: "x", by: "ann", at: 9_999)
        #expect(throws: BallotError.closed) { try ballot.vote(for: "y", by: "ann", at: 10_000) }
        #expect(ballot.votes == ["ann": "x"])
    }

    @Test mutating func aVoteForATrackNotOnTheBallotIsRefused() {
        #expect(throws: BallotError.notACandidate) { try ballot.vote(for: "nope", by: "ann", at: 0) }
        #expect(ballot.votes.isEmpty)
    }

    @Test mutating func weightsDecide() throws {
        try ballot.vote(for: "x", by: "trusted", at: 0)
        try ballot.vote(for: "y", by: "new1", at: 0)
        try ballot.vote(for: "y", by: "new2", at: 0)
        let weights = ["trusted": 2.5, "new1": 1.0, "new2": 1.0]
        #expect(ballot.winner(weight: { weights[$0] ?? 1 }, recommender: noOpinion) == "x")
        #expect(ballot.winner(weight: even, recommender: noOpinion) == "y")
    }

    @Test mutating func theRecommenderBreaksATie() throws {
        try ballot.vote(for: "x", by: "ann", at: 0)
        try ballot.vote(for: "z", by: "bob", at: 0)
        let scores: [TrackID: Double] = ["x": 0.2, "z": 0.9]
        #expect(ballot.winner(weight: even, recommender: { scores[$0] ?? 0 }) == "z")
        // With no votes at all, the recommender's favourite wins.
        let empty = Ballot(id: "b2", follows: "e1", candidates: ballot.candidates, closesAt: 0)
        #expect(empty.winner(weight: even, recommender: { scores[$0] ?? 0 }) == "z")
        #expect(empty.winner(weight: even, recommender: noOpinion) == "x")
    }

    @Test func theBallotClosesInTimeForEveryDeviceToPrepareTheWinner() {
        #expect(Ballot.closingTime(songEndsAt: 200_000, commitLead: 300, prepare: 15_000) == 184_700)
    }

    @Test func candidatesMixSuggestionsAndTheRecommendersPicks() {
        let candidates = Ballot.candidates(
            suggestions: [("s1", "ann"), ("s2", "bob"), ("s2", "cat"), ("s2", "cat"), ("old", "dan"), ("s3", "eve"),
                          ("s4", "fay")],
            recommended: ["r1", "s1", "r2", "old", "r3", "r4"], recent: ["old"], size: 6)
        // The most suggested first; half the seats; no repeats, nothing recent.
        #expect(candidates.map(\.trackID) == ["s2", "s1", "s3", "r1", "r2", "r3"])
        #expect(candidates[0].suggestedBy == ["bob", "cat"])
    }

    @Test func seatsTheRecommenderCannotFillGoToSuggestions() {
        let candidates = Ballot.candidates(
            suggestions: [("s1", "ann"), ("s2", "bob"), ("s3", "cat"), ("s4", "dan")], recommended: ["r1"],
            recent: [], size: 4)
        #expect(candidates.map(\.trackID) == ["s1", "s2", "r1", "s3"])
    }
}
