/// Something someone may ask to do to a station, checked against their role.
public enum StationOperation: String, Sendable, CaseIterable {
    /// DJ commands: queue, queueNext, skip, remove, move, pause, resume, seek.
    case command
    /// Request a song, or withdraw your own request (requests mode).
    case request
    /// Vote on a request, or to skip the song that plays.
    case vote
    /// The host's overrides: move, veto or play a request now.
    case arrangeRequests
    /// Choose the robot DJ's song pool.
    case setPool
    /// Name, visibility, max listeners.
    case editSettings
    /// See the frequency and access code of a code-protected station.
    case viewCode
    /// New frequency and access code, optional expiry.
    case rotateCode
    case createInvite
    case listInvites
    case revokeInvite
    case viewMembers
    case grantCoDJ
    case revokeCoDJ
    /// Remove someone now (they may rejoin if the station lets them).
    case kick
    case ban
    case unban
    /// Everyone is told and disconnected.
    case endSession
    /// Drop your own membership.
    case leave
    /// Post in the station's chat (guests only when the host allows them).
    case chat
    /// Delete messages, mute people, slow mode.
    case moderateChat
    /// Send a voice clip: the owner's and co-DJs' go on the air; a
    /// listener's (when the host lets guests send them) waits for approval.
    case sendClip
    /// Approve a waiting clip (it plays next), or delete any clip.
    case approveClip
    /// Add, change or delete the station's shows (naming their hosts is the
    /// owner's alone: `ShowHosts`).
    case editSchedule
}

/// Who may do what on a station. The table is the single source of truth:
/// the server asks `allows`, and the docs are generated from `markdownTable`.
public enum StationPermissions {
    private static let owner: Set<StationRole> = [.owner]
    private static let staff: Set<StationRole> = [.owner, .codj]
    private static let everyone: Set<StationRole> = [.owner, .codj, .listener]

    /// THE authorization table: for each operation, the roles that may do it.
    /// `.none` appears nowhere: someone with no role on a station may do nothing to it.
    public static let table: [StationOperation: Set<StationRole>] = [
        .command: staff,
        .request: everyone,
        .vote: everyone,
        .arrangeRequests: staff,
        .setPool: staff,
        .editSettings: owner,
        .viewCode: staff,
        .rotateCode: owner,
        .createInvite: staff,
        .listInvites: staff,
        .revokeInvite: staff,
        .viewMembers: staff,
        .grantCoDJ: owner,
        .revokeCoDJ: owner,
        .kick: staff,
        .ban: owner,
        .chat: everyone,
        .moderateChat: staff,
        .sendClip: everyone,
        .approveClip: staff,
        .editSchedule: staff,
        .unban: owner,
        .endSession: owner,
        // The owner can't leave their own station (they'd orphan it); they end it or delete it.
        .leave: [.listener, .codj],
    ]

    public static func allows(_ role: StationRole, _ operation: StationOperation) -> Bool {
        // A missing row refuses, so a new operation is closed until someone grants it.
        table[operation]?.contains(role) ?? false
    }

    /// What hosting the show on the air grants on top of a person's own
    /// role: running the sound and the room while it airs. Never what the
    /// owner grants (the code, invites, members, the schedule, roles): a
    /// host who could reach those could make themselves more than a host.
    public static let onAir: Set<StationOperation> = [.command, .arrangeRequests, .moderateChat, .approveClip]

    /// `allows`, for someone whose `role` comes from hosting the show on the
    /// air on top of `baseRole`: outside `onAir`, only `baseRole` counts.
    public static func allows(_ role: StationRole, hosting baseRole: StationRole, _ operation: StationOperation) -> Bool {
        allows(onAir.contains(operation) ? role : baseRole, operation)
    }

    /// Kick and ban also need the target to rank strictly below the actor: a
    /// co-DJ may remove listeners, never the owner or another co-DJ, and nobody
    /// removes the owner.
    ///
    /// This checks rank only, plus that the actor may remove anyone at all
    /// (may `kick`); the server must still check `allows(actor, .ban)` for bans.
    public static func mayRemove(actor: StationRole, target: StationRole) -> Bool {
        allows(actor, .kick) && target != .owner && target < actor
    }

    /// A Markdown table (operation | owner | co-DJ | listener | none) with ✓/—
    /// cells, generated from `table` so docs can be checked against the code.
    public static func markdownTable() -> String {
        let columns: [(title: String, role: StationRole)] = [
            ("owner", .owner), ("co-DJ", .codj), ("listener", .listener), ("none", .none),
        ]
        var lines = [
            "| operation | " + columns.map(\.title).joined(separator: " | ") + " | listener hosting the show on air |",
            "|---|" + columns.map { _ in ":---:|" }.joined() + ":---:|",
        ]
        for operation in StationOperation.allCases {
            let cells = columns.map { allows($0.role, operation) ? "✓" : "—" }
                + [allows(.codj, hosting: .listener, operation) ? "✓" : "—"]
            lines.append("| `\(operation.rawValue)` | " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
