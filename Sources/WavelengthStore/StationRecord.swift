import WavelengthCore

/// A station's identity, owner and access settings. Its timeline lives in `timelineEntry`.
public struct StationRecord: Sendable, Equatable, Codable {
    public var id: StationID
    public var name: String
    /// The owner's display name, kept with the station for listing.
    public var owner: String
    /// The owning person; nil for a station from before accounts until it is claimed.
    public var ownerID: String? = nil
    /// SHA-256 of a pre-accounts owner key, hex: it can claim the station once.
    public var ownerKeyHash: String?
    /// The short code shown as a frequency; nil while the station holds none.
    public var frequency: String?
    /// After this instant the code no longer finds the station.
    public var codeExpiresAt: EpochMillis? = nil
    /// The 6-digit secret that, with the frequency, lets people join a
    /// code-protected station. Shown to its owner and co-DJs only.
    public var accessCode: String? = nil
    public var visibility: StationVisibility = .public
    public var maxListeners: Int? = nil
    /// A person's own station, made with their account.
    public var personal: Bool = false
    public var revision: Int64
    public var quietSince: EpochMillis?
    public var createdAt: EpochMillis
    public var pausedAt: EpochMillis? = nil
    /// Who decides what plays: the DJ, the party's requests, or the lobby.
    public var mode: ProgrammingMode = .dj
    /// The host's rules for requests; nil means the defaults.
    public var requestSettings: RequestSettings? = nil

    public init(
        id: StationID, name: String, owner: String, ownerID: String? = nil, ownerKeyHash: String? = nil,
        frequency: String?, visibility: StationVisibility = .public, personal: Bool = false,
        revision: Int64 = 0, quietSince: EpochMillis?, createdAt: EpochMillis
    ) {
        self.id = id
        self.name = name
        self.owner = owner
        self.ownerID = ownerID
        self.ownerKeyHash = ownerKeyHash
        self.frequency = frequency
        self.visibility = visibility
        self.personal = personal
        self.revision = revision
        self.quietSince = quietSince
        self.createdAt = createdAt
    }

    /// The code that finds this station now, if it holds one that has not expired.
    public func liveFrequency(at now: EpochMillis) -> String? {
        guard let frequency else { return nil }
        if let codeExpiresAt, codeExpiresAt <= now { return nil }
        return frequency
    }
}

