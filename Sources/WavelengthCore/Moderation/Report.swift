/// What a report is about.
public enum ReportSubject: String, Sendable, Codable, CaseIterable {
    /// One message in a station's chat.
    case chat
    /// One voice clip sent to a station.
    case clip
    /// A station as a whole (its name, what it plays).
    case station
    /// A person (their name, their behaviour across the server).
    case person

    /// Whether the station's owner and co-DJs see it in their queue: what
    /// was said or sent in their room. A report about the station itself
    /// or about a person goes to the administrators alone.
    public var reachesTheRoom: Bool { self == .chat || self == .clip }
}

/// Why, from a short list (Mastodon's and Owncast's, merged), with a note.
public enum ReportReason: String, Sendable, Codable, CaseIterable {
    case spam
    case harassment
    case hate
    case sexual
    case violence
    case illegal
    case other
}

public enum ReportStatus: String, Sendable, Codable, CaseIterable {
    case open
    /// Looked at; nothing done.
    case dismissed
    /// Something was done (the action is kept with it).
    case actioned
}

/// What a moderator does about a report. Every one closes it.
public enum ReportAction: String, Sendable, Codable, CaseIterable {
    case dismiss
    /// The message or clip goes; for a station report, the station (administrators only).
    case delete
    /// An hour's mute in the station's chat.
    case mute
    /// Banned from the station.
    case ban
    /// Suspended across the server (administrators only).
    case suspend
}

/// Who may do what about a report: the pure rule, so the server, the docs
/// and the web app's buttons agree.
public enum ReportRules {
    /// A mute from a report lasts the longest a chat mute may.
    public static let muteMinutes = 60

    /// The actions that make sense for a report about `subject`.
    public static func actions(for subject: ReportSubject) -> [ReportAction] {
        switch subject {
        case .chat: [.dismiss, .delete, .mute, .ban, .suspend]
        case .clip: [.dismiss, .delete, .ban, .suspend]
        case .station: [.dismiss, .delete, .suspend]
        case .person: [.dismiss, .suspend]
        }
    }

    /// The station operation an action on the room's content stands for;
    /// nil for one only an administrator takes.
    static func operation(_ action: ReportAction, on subject: ReportSubject) -> StationOperation? {
        switch (action, subject) {
        case (.dismiss, _): .moderateChat
        case (.delete, .chat), (.mute, .chat): .moderateChat
        case (.delete, .clip): .approveClip
        case (.ban, _): .ban
        default: nil
        }
    }

    /// Whether someone may take `action` on a report about `subject`:
    /// an administrator any that fits; on the room's content, the role the
    /// station's own table gives them (a co-DJ deletes and mutes, the owner
    /// bans too). Nobody else.
    public static func mayTake(
        _ action: ReportAction, on subject: ReportSubject, role: StationRole, isAdministrator: Bool
    ) -> Bool {
        guard actions(for: subject).contains(action) else { return false }
        if isAdministrator { return true }
        guard subject.reachesTheRoom, let operation = operation(action, on: subject) else { return false }
        return StationPermissions.allows(role, operation)
    }
}

/// How much reporting one person and the server may hold, so reports
/// can't be used to flood the people who read them.
public struct ReportLimits: Sendable, Equatable {
    /// Reports one person may make in an hour.
    public var perHour: Int
    /// Reports of one person's that may wait at once.
    public var openPerReporter: Int
    /// Reports that may wait on the whole server.
    public var openOnServer: Int

    public init(perHour: Int = 10, openPerReporter: Int = 30, openOnServer: Int = 10_000) {
        self.perHour = perHour
        self.openPerReporter = openPerReporter
        self.openOnServer = openOnServer
    }

    /// Why a new report can't be kept, given what the reporter made in the
    /// last hour, what of theirs waits and what waits on the server; nil
    /// when it can.
    public func refusal(lastHour: Int, waiting: Int, onServer: Int) -> String? {
        if lastHour >= perHour { return "You've made \(perHour) reports in the last hour: try again later." }
        if waiting >= openPerReporter { return "\(openPerReporter) of your reports wait for a moderator already." }
        if onServer >= openOnServer { return "The server's moderators have \(openOnServer) reports waiting: try again later." }
        return nil
    }

    /// The longest note, in Unicode scalars (JSON Schema's `maxLength`).
    public static let noteLength = 1_000
    /// A person blocks at most this many people.
    public static let blocksPerPerson = 1_000
}
