/// How someone listens. People (app and stream) make the station's count;
/// relays and bots are counted apart, never hidden and never added in.
public enum ListenerKind: String, Sendable, Codable, CaseIterable, Hashable {
    /// The web app, the SDK or anything else on the live WebSocket.
    case app
    /// A player on the radio stream.
    case stream
    /// Another streaming server re-broadcasting this one.
    case relay
    /// A crawler or a monitor fetching the stream.
    case bot

    /// Whether this kind is a person listening.
    public var isPerson: Bool { self == .app || self == .stream }

    /// The kind of a stream client, from its User-Agent: relays name
    /// themselves (Icecast's relay, Liquidsoap, AzuraCast), crawlers and
    /// monitors say bot, crawler or spider. Anything else is a player.
    public static func stream(userAgent: String?) -> ListenerKind {
        guard let agent = userAgent?.lowercased(), !agent.isEmpty else { return .stream }
        if ["icecast", "liquidsoap", "shoutcast", "azuracast", "relay"].contains(where: agent.contains) { return .relay }
        if ["bot", "crawler", "spider", "slurp", "facebookexternalhit", "monitor"].contains(where: agent.contains) {
            return .bot
        }
        return .stream
    }
}

/// Who a presence belongs to, so that one person is one listener: a signed-in
/// person on any number of devices; a signed-out device by the key its app
/// and its players share; else a signed-out stream listener by address and
/// player, and a signed-out app listener by connection.
public struct ListenerIdentity: Hashable, Sendable, CustomStringConvertible {
    public let key: String
    /// Where a signed-out identity comes from: the client's address (behind
    /// a trusted proxy, the forwarded one). Signed-out listeners count at
    /// most `Audience.anonymousPerAddress` to an address, so one address
    /// can't pass for a crowd. Not part of the identity: a device is the
    /// same device from any address.
    public let address: String?

    private init(key: String, address: String? = nil) {
        self.key = key
        self.address = address.map { String($0.prefix(64)) }
    }

    public static func == (lhs: ListenerIdentity, rhs: ListenerIdentity) -> Bool { lhs.key == rhs.key }
    public func hash(into hasher: inout Hasher) { hasher.combine(key) }

    public static func person(_ id: String) -> ListenerIdentity { ListenerIdentity(key: "p:\(id)") }

    public static func connection(_ id: ConnectionID, address: String? = nil) -> ListenerIdentity {
        ListenerIdentity(key: "c:\(id.value)", address: address)
    }

    /// A signed-out device whose app connection and players (the live
    /// relay, the stream) say the same device key.
    public static func device(_ key: DeviceKey, address: String? = nil) -> ListenerIdentity {
        ListenerIdentity(key: "d:\(key.value)", address: address)
    }

    /// A player with no account: the address and the User-Agent (cut to a
    /// bounded length, so a long header can't grow the roster's memory).
    public static func player(address: String, userAgent: String?) -> ListenerIdentity {
        ListenerIdentity(key: "s:\(address.prefix(64))|\((userAgent ?? "").prefix(160))", address: address)
    }

    /// One of the listeners another node of a cluster relays the station
    /// to (that node reports how many, not who: see `ListenerPresence`).
    public static func relayed(node: String, index: Int) -> ListenerIdentity {
        ListenerIdentity(key: "r:\(node.prefix(64))#\(index)")
    }

    public var description: String { key }
}

/// What a signed-out listener's app connection and players on one device
/// pass as `?listener=`, so that hearing a live show through the relay while
/// the app is connected is one listener, not an app listener and a stream
/// listener. The client makes it up (at random, once per page or client):
/// one connection is one listener without it, and with it a client can only
/// make its own presences count as one, never add any.
public struct DeviceKey: Hashable, Sendable {
    public static let lengths = 8...64
    public let value: String

    /// Nil unless 8–64 characters of A–Z, a–z, 0–9, `-` and `_` (what
    /// base64url and UUIDs are made of).
    public init?(_ text: String) {
        guard Self.lengths.contains(text.utf8.count),
              text.utf8.allSatisfy({ byte in
                  (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                      || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
              })
        else { return nil }
        value = text
    }
}
