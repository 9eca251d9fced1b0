import Testing
import WavelengthCore
import WavelengthWire

@Suite("Error codes")
struct ErrorCodeTests {
    @Test func refusalsToListenHaveTheirCodes() {
        #expect(ErrorCode(ListenDecision.allowed) == nil)
        #expect(ErrorCode(ListenDecision.signInRequired)?.rawValue == "sign_in_required")
        #expect(ErrorCode(ListenDecision.notAMember)?.rawValue == "not_a_member")
        #expect(ErrorCode(ListenDecision.banned)?.rawValue == "banned")
    }

    @Test func timelineRefusalsKeepTheCodesClientsKnow() {
        #expect(ErrorCode(TimelineError.unknownEntry("e")).rawValue == "unknown_entry")
        #expect(ErrorCode(TimelineError.alreadyPlayed("e")).rawValue == "already_played")
        #expect(ErrorCode(TimelineError.notCurrent(expected: "e")).rawValue == "not_current")
        #expect(ErrorCode(TimelineError.paused).rawValue == "paused")
    }

    @Test func everyCodeIsDistinctAndSnakeCase() {
        let raw = ErrorCode.allCases.map(\.rawValue)
        #expect(Set(raw).count == raw.count)
        for code in raw {
            #expect(code.allSatisfy { $0.isLowercase || $0 == "_" || $0.isNumber }, "\(code)")
        }
    }
}
