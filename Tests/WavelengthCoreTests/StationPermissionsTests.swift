import Testing
@testable import WavelengthCore

@Suite("Station permissions")
struct StationPermissionsTests {
    /// Written out by hand from the spec, not derived from `table`, so a wrong
    /// edit to the table fails here.
    static let expected: [StationOperation: Set<StationRole>] = [
        .command: [.owner, .codj],
        .request: [.owner, .codj, .listener],
        .vote: [.owner, .codj, .listener],
        .arrangeRequests: [.owner, .codj],
        .setPool: [.owner, .codj],
        .editSettings: [.owner],
        .viewCode: [.owner, .codj],
        .rotateCode: [.owner],
        .createInvite: [.owner, .codj],
        .listInvites: [.owner, .codj],
        .revokeInvite: [.owner, .codj],
        .viewMembers: [.owner, .codj],
        .grantCoDJ: [.owner],
        .revokeCoDJ: [.owner],
        .kick: [.owner, .codj],
        .ban: [.owner],
        .unban: [.owner],
        .endSession: [.owner],
        .leave: [.listener, .codj],
        .chat: [.owner, .codj, .listener],
        .moderateChat: [.owner, .codj],
        .sendClip: [.owner, .codj, .listener],
        .approveClip: [.owner, .codj],
        .editSchedule: [.owner, .codj],
    ]

    /// What a listener hosting the show on the air may do, written out by
    /// hand: the sound and the room, never what the owner grants.
    static let hostOnAir: Set<StationOperation> = [
        .command, .arrangeRequests, .moderateChat, .approveClip, .request, .vote, .chat, .sendClip, .leave,
    ]

    @Test(arguments: StationOperation.allCases)
    func aShowsHostRunsTheSoundAndTheRoomAndNothingMore(_ operation: StationOperation) {
        #expect(StationPermissions.allows(.codj, hosting: .listener, operation) == Self.hostOnAir.contains(operation))
    }

    @Test func onlyTheOwnerNamesHostsAndABanWinsOverAnyShow() {
        #expect(ShowHosts.mayName(["a", "b"], existing: [], actorIsOwner: true))
        #expect(!ShowHosts.mayName(["stranger"], existing: [], actorIsOwner: false))
        #expect(!ShowHosts.mayName(["a", "stranger"], existing: ["a"], actorIsOwner: false))
        #expect(!ShowHosts.mayName([], existing: ["a"], actorIsOwner: false))
        #expect(ShowHosts.mayName(["b", "a"], existing: ["a", "b"], actorIsOwner: false))
        #expect(!ShowHosts.mayHost(AccessFacts(hasIdentity: true, isBanned: true)))
        #expect(ShowHosts.mayHost(AccessFacts(hasIdentity: true)))
        #expect(!ShowHosts.mayGoLive(isOwner: false, hostsShowOnAir: true, isBanned: true))
        #expect(ShowHosts.mayGoLive(isOwner: false, hostsShowOnAir: true, isBanned: false))
        #expect(!ShowHosts.mayGoLive(isOwner: false, hostsShowOnAir: false, isBanned: false))
    }

    @Test func theExpectedListCoversEveryOperation() {
        #expect(Set(Self.expected.keys) == Set(StationOperation.allCases))
    }

    @Test(arguments: StationOperation.allCases)
    func everyRoleIsAllowedOrRefusedAsSpecified(_ operation: StationOperation) {
        let allowed = Self.expected[operation] ?? []
        for role in StationRole.allCases {
            #expect(
                StationPermissions.allows(role, operation) == allowed.contains(role),
                "\(role) \(allowed.contains(role) ? "should" : "should not") be allowed to \(operation)")
        }
    }

    @Test func someoneWithNoRoleMayDoNothing() {
        for operation in StationOperation.allCases {
            #expect(!StationPermissions.allows(.none, operation))
        }
    }

    @Test func rolesAreRanked() {
        #expect(StationRole.none < .listener)
        #expect(StationRole.listener < .codj)
        #expect(StationRole.codj < .owner)
        #expect(StationRole.allCases.sorted() == [.none, .listener, .codj, .owner])
    }

    @Test func removalOnlyGoesDownwards() {
        // The owner removes anyone but themselves.
        #expect(StationPermissions.mayRemove(actor: .owner, target: .codj))
        #expect(StationPermissions.mayRemove(actor: .owner, target: .listener))
        #expect(StationPermissions.mayRemove(actor: .owner, target: .none))
        #expect(!StationPermissions.mayRemove(actor: .owner, target: .owner))
        // A co-DJ removes listeners, never another co-DJ or the owner.
        #expect(StationPermissions.mayRemove(actor: .codj, target: .listener))
        #expect(StationPermissions.mayRemove(actor: .codj, target: .none))
        #expect(!StationPermissions.mayRemove(actor: .codj, target: .codj))
        #expect(!StationPermissions.mayRemove(actor: .codj, target: .owner))
        // Listeners and strangers remove nobody, even someone ranked below them.
        for target in StationRole.allCases {
            #expect(!StationPermissions.mayRemove(actor: .listener, target: target))
            #expect(!StationPermissions.mayRemove(actor: .none, target: target))
        }
    }

    @Test func markdownTableHasOneRowPerOperation() {
        let lines = StationPermissions.markdownTable().split(separator: "\n")
        #expect(lines.count == 2 + StationOperation.allCases.count)
        #expect(lines[0] == "| operation | owner | co-DJ | listener | none | listener hosting the show on air |")
        for operation in StationOperation.allCases {
            #expect(lines.filter { $0.hasPrefix("| `\(operation.rawValue)` |") }.count == 1)
        }
        #expect(lines.contains("| `leave` | — | ✓ | ✓ | — | ✓ |"))
        #expect(lines.contains("| `kick` | ✓ | ✓ | — | — | — |"))
        #expect(lines.contains("| `ban` | ✓ | — | — | — | — |"))
        #expect(lines.contains("| `command` | ✓ | ✓ | — | — | ✓ |"))
    }

    @Test func onlyPublicStationsAreListed() {
        #expect(StationVisibility.allCases.filter(\.isListed) == [.public])
    }
}
