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
/// person on any number of devices; a signed-out stream listener by address
/// and player; a signed-out app listener by connection.
public struct ListenerIdentity: Hashable, Sendable, CustomStringConvertible {
    public let key: String

    private init(key: String) {
        self.key = key
    }

    public static func person(_ id: String) -> ListenerIdentity { ListenerIdentity(key: "p:\(id)") }

    public static func connection(_ id: ConnectionID) -> ListenerIdentity { ListenerIdentity(key: "c:\(id.value)") }

    /// A player with no account: the address and the User-Agent (cut to a
    /// bounded length, so a long header can't grow the roster's memory).
    public static func player(address: String, userAgent: String?) -> ListenerIdentity {
        ListenerIdentity(key: "s:\(address.prefix(64))|\((userAgent ?? "").prefix(160))")
    }

    public var description: String { key }
}
