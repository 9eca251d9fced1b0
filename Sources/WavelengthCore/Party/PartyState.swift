/// A station's party: its programming mode, the host's request settings,
/// the queue of requests and the votes to skip the song that plays.
public struct PartyState: Sendable, Equatable {
    public var mode: ProgrammingMode
    public var settings: RequestSettings
    public var queue: RequestQueue
    /// Votes to skip the current song; they belong to one song and are not
    /// saved (a restart starts the count again).
    public var skips = SkipTally()
    /// Thumbs on the song playing now (every mode).
    public var thumbs = ThumbTally()
    /// How fast each person sends the party's commands.
    public var pace = PartyPace()
    /// The lobby's ballot, suggestions and credibility.
    public var lobby: LobbyState

    public init(
        mode: ProgrammingMode = .dj, settings: RequestSettings = RequestSettings(), queue: RequestQueue = RequestQueue(),
        lobby: LobbyState = LobbyState()
    ) {
        self.mode = mode
        self.settings = settings
        self.queue = queue
        self.lobby = lobby
    }

    public var takesRequests: Bool { mode == .requests }
    public var isLobby: Bool { mode == .lobby }
}
