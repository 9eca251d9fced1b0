/// One live connection to a station, numbered by the server when it opens.
public struct ConnectionID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let value: UInt64

    public init(_ value: UInt64) {
        self.value = value
    }

    public static func < (lhs: ConnectionID, rhs: ConnectionID) -> Bool { lhs.value < rhs.value }

    public var description: String { "c\(value)" }
}

/// Who holds one live connection, and what they may do on the station.
public struct Seat: Sendable, Equatable {
    public var personID: String?
    public var name: String
    public var role: StationRole
    /// How this seat counts in the station's audience; nil for the server's
    /// own stream encoder, which listens for its stream listeners (they
    /// are counted one by one instead).
    public var audience: ListenerKind?
    /// The show this person hosts, now or next: co-DJ inside it.
    public var hosting: HostingWindow?
    /// The person's handle, for chat mentions; nil for guests and the
    /// anonymous.
    public var handle: String?
    /// A signed-out listener's device key, shared with their players.
    public var device: DeviceKey?
    /// The client's address (behind a trusted proxy, the forwarded one):
    /// a signed-out seat's weight (in the count, its reactions, its room
    /// signals) is limited per address, not per socket.
    public var address: String?
    /// The people a block stands between this seat's person and, either
    /// way: their chat doesn't reach this seat, nor this seat's theirs.
    public var apart: Set<String> = []

    public init(
        personID: String?, name: String, role: StationRole, audience: ListenerKind? = .app, hosting: HostingWindow? = nil,
        handle: String? = nil, device: DeviceKey? = nil, address: String? = nil
    ) {
        self.personID = personID
        self.address = address
        self.name = name
        self.handle = handle
        self.device = device
        self.role = role
        self.audience = audience
        self.hosting = hosting
    }

    /// Who the seat's limits go by: its person, else its address, else
    /// (the server's own seats) its connection.
    public func limitKey(on connection: ConnectionID) -> String {
        personID.map { "p:\($0)" } ?? address.map { "a:\($0)" } ?? "c:\(connection.description)"
    }

    /// Whether a block stands between this seat and `other`'s person.
    public func isApart(from other: Seat) -> Bool {
        guard let mine = personID, let theirs = other.personID else { return false }
        return apart.contains(theirs) || other.apart.contains(mine)
    }

    /// A guest: a person with a name and no account (no handle).
    public var isGuest: Bool { personID != nil && handle == nil }

    /// The handle others mention this person by in the chat: their
    /// account's, or a guest's room handle (`ChatText.guestHandle`).
    public var mentionHandle: String? {
        handle ?? personID.map { ChatText.guestHandle(name: name, personID: $0) }
    }

    public static let anonymous = Seat(personID: nil, name: "A listener", role: .listener)
}

/// A connection in the station's arrival order, with its seat.
public struct Connection: Sendable, Equatable {
    public let id: ConnectionID
    public var seat: Seat
    /// Set when the connection was told to close (kicked, banned, ended):
    /// it counts as a listener until it is gone, but may do nothing more.
    public var closing = false
}
