import WavelengthCore

/// Every machine-readable error code the server sends, in HTTP error bodies
/// (`{"error": {"code", "message"}}`) and WebSocket `error` messages. One
/// list, so a client can switch over them and a typo can't invent a code.
public enum ErrorCode: String, Sendable, Codable, CaseIterable {
    case alreadyPlayed = "already_played"
    case alreadyScheduled = "already_scheduled"
    case alreadySignedIn = "already_signed_in"
    case badAudio = "bad_audio"
    case badMessage = "bad_message"
    case badRequest = "bad_request"
    case busy = "busy"
    case calibrationRefused = "calibration_refused"
    case banned = "banned"
    case blocked = "blocked"
    case cannotFollowSelf = "cannot_follow_self"
    case cannotMute = "cannot_mute"
    case chatNotAllowed = "chat_not_allowed"
    case chatOff = "chat_off"
    case clipQuota = "clip_quota"
    case clipsClosed = "clips_closed"
    case pendingClips = "pending_clips"
    case controlCharacters = "control_characters"
    case emptyMessage = "empty_message"
    case invalidMute = "invalid_mute"
    case muted = "muted"
    case slowMode = "slow_mode"
    case unknownReaction = "unknown_reaction"
    case conflict = "conflict"
    case csrf = "csrf"
    case entryIsPlaying = "entry_is_playing"
    case forbidden = "forbidden"
    case handleTaken = "handle_taken"
    case httpError = "http_error"
    case indexOutOfRange = "index_out_of_range"
    case `internal` = "internal"
    case invalidCommandId = "invalid_command_id"
    case invalidCredentials = "invalid_credentials"
    case invalidExpiry = "invalid_expiry"
    case invalidHandle = "invalid_handle"
    case invalidId = "invalid_id"
    case invalidInvite = "invalid_invite"
    case invalidLimit = "invalid_limit"
    case invalidName = "invalid_name"
    case invalidPassword = "invalid_password"
    case invalidToken = "invalid_token"
    case isOwner = "is_owner"
    case likeLimit = "like_limit"
    case liveOnAir = "live_on_air"
    case liveSourceBusy = "live_source_busy"
    case lockedOut = "locked_out"
    case methodNotAllowed = "method_not_allowed"
    case noFrequency = "no_frequency"
    case notAMember = "not_a_member"
    case notCurrent = "not_current"
    case notFound = "not_found"
    case notOnAir = "not_on_air"
    case notPaused = "not_paused"
    case nothingPlaying = "nothing_playing"
    case notRequestsMode = "not_requests_mode"
    case notLobbyMode = "not_lobby_mode"
    case noBallot = "no_ballot"
    case ballotClosed = "ballot_closed"
    case notACandidate = "not_a_candidate"
    case volumeVotingOff = "volume_voting_off"
    case notAvailable = "not_available"
    case notYours = "not_yours"
    case needsName = "needs_name"
    case playedRecently = "played_recently"
    case queueFull = "queue_full"
    case requestsClosed = "requests_closed"
    case tooManyRequests = "too_many_requests"
    /// One address or person holds as many live sockets as it may, or the
    /// server as many as it can.
    case tooManyConnections = "too_many_connections"
    case trackTooLong = "track_too_long"
    case unknownRequest = "unknown_request"
    case vetoed = "vetoed"
    case invalidSettings = "invalid_settings"
    case paused = "paused"
    case positionOutOfRange = "position_out_of_range"
    case rangeNotSatisfiable = "range_not_satisfiable"
    case rateLimited = "rate_limited"
    case scheduleClash = "schedule_clash"
    case scheduleFull = "schedule_full"
    case reminderLimit = "reminder_limit"
    case serviceUnavailable = "service_unavailable"
    case signInRequired = "sign_in_required"
    case staleEpoch = "stale_epoch"
    case stationFull = "station_full"
    case stationLimit = "station_limit"
    case stationLocked = "station_locked"
    /// An administrator suspended the account: it can't sign in until the
    /// suspension is lifted.
    case suspended = "suspended"
    /// A sign-up an administrator hasn't approved yet: it can't sign in.
    case awaitingApproval = "awaiting_approval"
    /// The server takes no new accounts (guests still work).
    case registrationClosed = "registration_closed"
    /// Sign-ups here need a server invite link.
    case inviteRequired = "invite_required"
    case waitingListFull = "waiting_list_full"
    case inviteLimit = "invite_limit"
    /// A reporter's limits: so many reports an hour, so many waiting.
    case reportLimit = "report_limit"
    case blockLimit = "block_limit"
    /// An upload past the uploader's quota or the server's cap.
    case uploadQuota = "upload_quota"
    /// An upload's file name holds a folder or control characters.
    case badFileName = "bad_file_name"
    case timelineFull = "timeline_full"
    case tooLarge = "too_large"
    case tooFast = "too_fast"
    case tooLong = "too_long"
    case tooManyTracks = "too_many_tracks"
    case unauthorized = "unauthorized"
    case unknownEntry = "unknown_entry"
    case unknownFormat = "unknown_format"
    case unknownTrack = "unknown_track"
    case unsupportedMediaType = "unsupported_media_type"
    case unknownType = "unknown_type"
    case unsupportedVersion = "unsupported_version"
    case wrongCode = "wrong_code"
    case wrongKey = "wrong_key"
    case wrongPassword = "wrong_password"
}

extension ErrorCode {
    /// The code for a refused timeline edit.
    public init(_ error: TimelineError) {
        self =
            switch error {
            case .unknownEntry: .unknownEntry
            case .alreadyPlayed: .alreadyPlayed
            case .entryIsPlaying: .entryIsPlaying
            case .nothingPlaying: .nothingPlaying
            case .notCurrent: .notCurrent
            case .indexOutOfRange: .indexOutOfRange
            case .unknownTrack: .unknownTrack
            case .timelineFull: .timelineFull
            case .positionOutOfRange: .positionOutOfRange
            case .paused: .paused
            case .notPaused: .notPaused
            case .live: .liveOnAir
            case .notAnEdit: .badMessage
            }
    }

    /// The code for a refused request, vote or override.
    public init(_ error: RequestError) {
        self =
            switch error {
            case .notRequestsMode: .notRequestsMode
            case .notAvailable, .noPlaylist: .notAvailable
            case .alreadyScheduled: .alreadyScheduled
            case .needsName: .needsName
            case .tooFast: .tooFast
            case .closed: .requestsClosed
            case .tooManyPending: .tooManyRequests
            case .tooLong: .trackTooLong
            case .playedRecently: .playedRecently
            case .vetoed: .vetoed
            case .notVetoed: .notFound
            case .queueFull: .queueFull
            case .unknownRequest: .unknownRequest
            case .notYours: .notYours
            case .invalidSettings: .invalidSettings
            case .notLobbyMode: .notLobbyMode
            case .noBallot: .noBallot
            case .ballotClosed: .ballotClosed
            case .notACandidate: .notACandidate
            case .volumeVotingOff: .volumeVotingOff
            case .blocked: .blocked
            }
    }

    /// The code for a refused chat message, reaction or moderator's action.
    public init(_ error: ChatError) {
        self =
            switch error {
            case .off: .chatOff
            case .notAllowed: .chatNotAllowed
            case .empty: .emptyMessage
            case .tooLong: .tooLong
            case .controlCharacters: .controlCharacters
            case .muted: .muted
            case .slowMode: .slowMode
            case .tooFast: .tooFast
            case .invalidMute: .invalidMute
            case .invalidSlowMode: .invalidSettings
            case .cannotMute: .cannotMute
            case .tooManyMutes: .conflict
            case .unknownReaction: .unknownReaction
            case .notCurrent: .notCurrent
            case .unknownPerson: .notFound
            }
    }

    /// The code for a refusal to listen; nil when listening is allowed.
    public init?(_ decision: ListenDecision) {
        switch decision {
        case .allowed: return nil
        case .signInRequired: self = .signInRequired
        case .notAMember: self = .notAMember
        case .banned: self = .banned
        }
    }
}
