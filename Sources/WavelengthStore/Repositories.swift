import WavelengthCore

/// Everything the server needs to keep stations. `AppDatabase` is the real
/// one; the protocol keeps the server testable and ready for PostgreSQL.
public protocol StationRepository: HistoryRepository, ChatRepository {
    /// Inserts a station with a free frequency from `band`, picked inside
    /// the same transaction. With `ownerLimit`, refuses
    /// (`StorageError.stationLimit`) when the owner already has that many
    /// stations, in the same transaction, so racing requests can't pass it.
    func insertStation(_ record: StationRecord, now: EpochMillis, band: FrequencyBand, ownerLimit: Int?)
        async throws -> FrequencyAssignment
    func allStations() async throws -> [StationRecord]
    /// Public stations for the dial: the ones on the air, then the most
    /// recently quiet, at most `limit` of each.
    func listedStations(limit: Int) async throws -> [StationRecord]
    func station(id: StationID) async throws -> StationRecord?
    func station(frequency: String) async throws -> StationRecord?
    /// The station with its timeline, recent history and recent command ids.
    func loadStation(id: StationID) async throws -> LoadedStation?
    /// Saves a station's new state in one transaction: the timeline, the
    /// plays that went to history, the command that caused it, if any, the
    /// party's queue when it changed, and a thumb given (requests, votes and
    /// thumbs are durable with what they caused).
    func saveStation(_ save: StationSave) async throws
    /// The thumbs given to a station's plays, newest first.
    func thumbs(stationID: StationID, limit: Int) async throws -> [Thumb]
    /// Sets the station's programming mode and request settings.
    func updateParty(stationID: StationID, mode: ProgrammingMode, requestSettings: RequestSettings) async throws
        -> StationRecord?
    /// The revision a command produced, when the station applied it before.
    func appliedRevision(stationID: StationID, commandID: String) async throws -> Int64?
    /// The tracks the robot DJ picks from; empty means the whole library.
    func pool(stationID: StationID) async throws -> [TrackID]
    /// Replaces the station's pool in one transaction; empty means the whole library.
    func setPool(stationID: StationID, trackIDs: [TrackID]) async throws
}

public struct LoadedStation: Sendable {
    public var record: StationRecord
    public var state: StationState
    public var recentCommands: [AppliedCommand]
    /// The party's queue as last saved; empty when there never was one.
    public var party: RequestQueue
    /// What the robot DJ has learned about this station's room.
    public var taste: TasteModel
    /// The lobby's ballot and suggestions as last saved.
    public var lobby: LobbyState.Saved?
    /// Each person's standing in the lobby.
    public var credibility: [String: Credibility]
    /// The chat's newest messages, mutes and slow mode.
    public var chat: ChatRoom.Saved

    public init(
        record: StationRecord, state: StationState, recentCommands: [AppliedCommand], party: RequestQueue = RequestQueue(),
        taste: TasteModel = TasteModel(), lobby: LobbyState.Saved? = nil, credibility: [String: Credibility] = [:],
        chat: ChatRoom.Saved = ChatRoom.Saved()
    ) {
        self.chat = chat
        self.record = record
        self.state = state
        self.recentCommands = recentCommands
        self.party = party
        self.taste = taste
        self.lobby = lobby
        self.credibility = credibility
    }
}

extension StationRepository {
    /// A save that leaves the party's queue as it is.
    public func saveStation(_ state: StationState, played: [TimelineEntry], command: AppliedCommand?) async throws {
        try await saveStation(StationSave(state: state, played: played, command: command))
    }
}

/// Read access to the library index.
public protocol TrackRepository: Sendable {
    func track(id: TrackID) async throws -> TrackRecord?
    func tracks(ids: [TrackID]) async throws -> [TrackID: TrackRecord]
    /// Find-as-you-type: every word of `query` must prefix-match a word of
    /// the title, artist or album; best matches first.
    /// The browsing and searching calls see what `viewer` may find
    /// (`TrackRecord.isVisible`): the library, shared uploads and their own.
    func search(_ query: String, limit: Int, viewer: String?) async throws -> [TrackRecord]
    func artists(viewer: String?) async throws -> [ArtistSummary]
    func albums(artist: String?, viewer: String?) async throws -> [AlbumSummary]
    func tracks(artist: String?, album: String?, limit: Int, offset: Int, viewer: String?) async throws -> [TrackRecord]
    /// Every playable track, with what the robot DJ needs; an unshared
    /// upload carries its uploader (`PoolTrack.privateTo`).
    func poolTracks() async throws -> [PoolTrack]
    func trackCount() async throws -> Int
}

extension TrackRepository {
    /// What anyone may find: the library and shared uploads.
    public func search(_ query: String, limit: Int) async throws -> [TrackRecord] {
        try await search(query, limit: limit, viewer: nil)
    }

    public func artists() async throws -> [ArtistSummary] { try await artists(viewer: nil) }

    public func albums(artist: String?) async throws -> [AlbumSummary] { try await albums(artist: artist, viewer: nil) }

    public func tracks(artist: String?, album: String?, limit: Int, offset: Int) async throws -> [TrackRecord] {
        try await tracks(artist: artist, album: album, limit: limit, offset: offset, viewer: nil)
    }
}

/// A station saved with its new frequency, and the station whose code was
/// taken back to make room for it, if any.
public typealias FrequencyAssignment = (record: StationRecord, reclaimedFrom: StationID?)

public enum StorageError: Error, Sendable, Equatable, CustomStringConvertible {
    case frequencyTaken(String)
    case handleTaken(String)
    case noFrequency
    case noSuchStation
    case stationLimit(Int)
    case reminderLimit(Int)
    case clipQuota(Int)
    case pendingClips(Int)
    /// This node doesn't hold the station's lease: another node runs it,
    /// or did since this one read it (`StationLeases`).
    case notOwner(StationID)
    /// As many sign-ups as the server keeps wait for approval already.
    case waitingListFull(Int)
    /// The person holds as many usable server invites as they may.
    case inviteLimit(Int)
    /// A reporter's limit (`ReportLimits`): so many in the last hour, or so many waiting.
    case reportLimit(String)
    /// A person blocks at most this many people.
    case blockLimit(Int)
    /// An upload would pass the uploader's quota or the server's cap.
    case uploadRefused(UploadAllowance.Refusal)

    public var description: String {
        switch self {
        case .frequencyTaken(let code): "The frequency \(code) is already taken."
        case .handleTaken(let handle): "The handle \(handle) is taken."
        case .noFrequency: "No free frequency is left on the dial."
        case .noSuchStation: "No such station."
        case .stationLimit(let limit): "An account has at most \(limit) stations."
        case .reminderLimit(let limit): "A person keeps at most \(limit) reminders."
        case .clipQuota(let bytes):
            "The station's voice clips would pass its \(bytes >> 20) MB: delete some first."
        case .pendingClips(let limit): "You have \(limit) clips waiting for the host already."
        case .notOwner(let id): "Station \(id) is run by another node now."
        case .waitingListFull(let limit): "\(limit) sign-ups wait for approval already."
        case .inviteLimit(let limit): "A person holds at most \(limit) usable invites."
        case .reportLimit(let why): why
        case .blockLimit(let limit): "A person blocks at most \(limit) people."
        case .uploadRefused(.quota(let bytes)):
            "Your uploads would pass your \(ByteCount.text(bytes)): delete some first, or ask an administrator for more."
        case .uploadRefused(.cap(let bytes)):
            "The server's uploads would pass its \(ByteCount.text(bytes)): ask an administrator to make room."
        }
    }
}

/// An error a store's engine raised, which may say that storage itself is
/// out of service (full, read-only, failing): then the server answers 503,
/// not 500, and the request may be tried again later. Each store marks its
/// engine's errors (SQLite's in `WavelengthSQLite`).
public protocol StorageFault: Error {
    var isOutage: Bool { get }
}

/// The background audio analysis: which tracks wait, and their features.
public protocol AnalysisRepository: Sendable {
    /// Playable tracks never analysed (or changed since), oldest first.
    func tracksToAnalyze(limit: Int) async throws -> [TrackRecord]
    /// Records what was measured; a reading is nil when it couldn't be, and
    /// the track isn't tried again until the file changes.
    func saveAnalysis(trackID: TrackID, features: AudioFeatures, at: EpochMillis) async throws
    /// How many playable tracks were analysed, of how many.
    func analysisCounts() async throws -> (analyzed: Int, total: Int)
    /// Every track's Chromaprint fingerprint, for the song recogniser.
    func fingerprints() async throws -> [(TrackID, AudioFingerprint)]
}
