import Testing
@testable import WavelengthCore

@Suite("Listen policy")
struct ListenPolicyTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var who: String
        var facts: AccessFacts
        var visibility: StationVisibility
        var decision: ListenDecision
        var role: StationRole
        var testDescription: String { "\(who) on \(visibility)" }
    }

    static let people: [(String, AccessFacts)] = [
        ("anonymous", AccessFacts()),
        ("identity only", AccessFacts(hasIdentity: true)),
        ("member", AccessFacts(hasIdentity: true, isMember: true)),
        ("follower", AccessFacts(hasIdentity: true, followsOwner: true)),
        ("co-DJ", AccessFacts(hasIdentity: true, isCoDJ: true)),
        ("owner", AccessFacts(hasIdentity: true, isOwner: true)),
        ("banned", AccessFacts(hasIdentity: true, isMember: true, isBanned: true, followsOwner: true)),
        ("banned co-DJ", AccessFacts(hasIdentity: true, isCoDJ: true, isBanned: true)),
        ("banned owner", AccessFacts(hasIdentity: true, isOwner: true, isBanned: true)),
    ]

    /// Expected outcome per person, in the order public, unlisted, code, followers, invite.
    static let expected: [String: [(ListenDecision, StationRole)]] = {
        let listen = (ListenDecision.allowed, StationRole.listener)
        let signIn = (ListenDecision.signInRequired, StationRole.none)
        let notMember = (ListenDecision.notAMember, StationRole.none)
        let banned = (ListenDecision.banned, StationRole.none)
        let codj = (ListenDecision.allowed, StationRole.codj)
        let owner = (ListenDecision.allowed, StationRole.owner)
        return [
            "anonymous": [listen, listen, signIn, signIn, signIn],
            "identity only": [listen, listen, notMember, notMember, notMember],
            "member": [listen, listen, listen, listen, listen],
            "follower": [listen, listen, notMember, listen, notMember],
            "co-DJ": [codj, codj, codj, codj, codj],
            "owner": [owner, owner, owner, owner, owner],
            "banned": [banned, banned, banned, banned, banned],
            "banned co-DJ": [banned, banned, banned, banned, banned],
            "banned owner": [owner, owner, owner, owner, owner],
        ]
    }()

    static let visibilities: [StationVisibility] = [.public, .unlisted, .code, .followers, .invite]

    static let cases: [Case] = people.flatMap { who, facts in
        zip(visibilities, expected[who]!).map { visibility, outcome in
            Case(who: who, facts: facts, visibility: visibility, decision: outcome.0, role: outcome.1)
        }
    }

    @Test func theTableCoversEveryVisibility() {
        #expect(Set(Self.visibilities) == Set(StationVisibility.allCases))
        #expect(Self.cases.count == Self.people.count * StationVisibility.allCases.count)
    }

    @Test(arguments: cases)
    func decisionAndRole(_ c: Case) {
        #expect(ListenPolicy.decide(c.facts, visibility: c.visibility) == c.decision)
        #expect(ListenPolicy.role(c.facts, visibility: c.visibility) == c.role)
    }

    @Test func roleIsListenerExactlyWhenAnOrdinaryPersonMayListen() {
        for c in Self.cases where !c.facts.isOwner && !c.facts.isCoDJ {
            let allowed = ListenPolicy.decide(c.facts, visibility: c.visibility) == .allowed
            #expect((ListenPolicy.role(c.facts, visibility: c.visibility) == .listener) == allowed)
        }
    }
}
