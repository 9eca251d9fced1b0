import Testing
import WavelengthCore

/// Who may sign up, decided from the mode and what a sign-up brings alone.
@Suite("Registration policy")
struct RegistrationPolicyTests {
    @Test func eachModeDecidesASignupWithAndWithoutAnInvite() {
        let expected: [(RegistrationMode, without: SignupDecision, with: SignupDecision)] = [
            (.open, .createAccount, .createAccount),
            (.approval, .awaitApproval, .createAccount),
            (.invite, .refuse(.inviteRequired), .createAccount),
            (.closed, .refuse(.closed), .refuse(.closed)),
        ]
        for (mode, without, with) in expected {
            let policy = RegistrationPolicy(mode: mode)
            #expect(policy.decide(hasValidInvite: false) == without, "\(mode) without an invite")
            #expect(policy.decide(hasValidInvite: true) == with, "\(mode) with an invite")
        }
    }

    @Test func membersInviteOnlyWhenAllowedAndNobodyInvitesToAClosedServer() {
        for mode in RegistrationMode.allCases {
            for allowed in [false, true] {
                let policy = RegistrationPolicy(mode: mode, membersMayInvite: allowed)
                #expect(policy.mayInvite(isAdministrator: true) == (mode != .closed))
                #expect(policy.mayInvite(isAdministrator: false) == (mode != .closed && allowed))
            }
        }
    }

    @Test func theDefaultDependsOnWhereTheServerListens() {
        #expect(RegistrationPolicy.byDefault(listensBeyondThisMachine: false) == RegistrationPolicy(mode: .open))
        #expect(RegistrationPolicy.byDefault(listensBeyondThisMachine: true) == RegistrationPolicy(mode: .approval))
        for host in ["127.0.0.1", "127.1.2.3", "localhost", "LOCALHOST", "::1", "[::1]"] {
            #expect(ListeningAddress.isLoopback(host), "\(host)")
        }
        for host in ["0.0.0.0", "::", "", "10.0.0.1", "127.0.0", "127.0.0.256", "127.0.0.1.5", "radio.example.edu", "128.0.0.1"] {
            #expect(!ListeningAddress.isLoopback(host), "\(host)")
        }
    }
}
