/// Who may find and tune in to a station.
public enum StationVisibility: String, Sendable, Codable, CaseIterable {
    /// On the public dial; anyone may listen.
    case `public`
    /// Anyone with the link may listen, but it isn't listed.
    case unlisted
    /// Members only; people join with the frequency and access code.
    case code
    /// People who follow the owner (and members).
    case followers
    /// Members only; people join through an invite.
    case invite

    /// Only public stations appear on the public dial and in GET /api/stations;
    /// every other kind must stay out of listings so they can't be discovered.
    public var isListed: Bool {
        self == .public
    }
}
