import WavelengthStore

/// Who is asking: a person (user or guest) with the session they came in,
/// or nobody; and from which address, for rate limits.
public struct Caller: Sendable {
    public var person: PersonRecord?
    public var sessionID: String?
    /// True when the session came in a cookie: state-changing requests then
    /// need the CSRF token, and a WebSocket from another origin is ignored.
    public var viaCookie: Bool
    /// The server's administrators (`wavelength admin grant`), read with
    /// the session on every request, so a revocation counts at once.
    public var isAdministrator: Bool

    public init(person: PersonRecord?, sessionID: String?, viaCookie: Bool, isAdministrator: Bool = false) {
        self.person = person
        self.sessionID = sessionID
        self.viaCookie = viaCookie
        self.isAdministrator = isAdministrator
    }

    public static let anonymous = Caller(person: nil, sessionID: nil, viaCookie: false)

    public var personID: String? { person?.id }
    public var isUser: Bool { person?.kind == .user }
}
