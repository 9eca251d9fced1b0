import Foundation

/// Where and how a `StationClient` connects.
public struct ClientConfiguration: Sendable {
    /// The server's base URL, e.g. `http://127.0.0.1:8080`.
    public var serverURL: String
    public var stationID: String
    /// Gives a current bearer access token (or nil to connect anonymously),
    /// asked before every connection: access tokens live 15 minutes, so a
    /// long-running client refreshes through its `AccountClient`.
    public var accessToken: @Sendable () async -> String?
    /// The person this client acts as; when the server says they were
    /// removed from the station, the client stops instead of reconnecting.
    public var personID: String?
    public var backoff: Backoff
    /// Probes sent right after connecting, `burstSpacing` ms apart.
    public var burstProbes: Int
    public var burstSpacing: Double
    /// What a signed-out client says to the station's WebSocket and to its
    /// live relay (`?listener=`), so that hearing a live show is one
    /// listener in the count, not an app listener and a stream listener:
    /// 8–64 letters, digits, `-` and `_`. Nil (or not such a key): each
    /// `StationClient` makes up its own.
    public var deviceKey: String?

    public init(
        serverURL: String, stationID: String, accessToken: @escaping @Sendable () async -> String? = { nil },
        personID: String? = nil, backoff: Backoff = Backoff(), burstProbes: Int = 8, burstSpacing: Double = 50
    ) {
        self.serverURL = serverURL
        self.stationID = stationID
        self.accessToken = accessToken
        self.personID = personID
        self.backoff = backoff
        self.burstProbes = burstProbes
        self.burstSpacing = burstSpacing
    }

    /// How long to wait before the next probe, `elapsed` ms after connecting.
    ///
    /// Fast at first (4 a second for 10 s), so the estimate is good within
    /// 10 s even on a jittery link; then once a second for the rest of the
    /// first minute; then every 5 s, which keeps a quiet crowd of listeners
    /// cheap for the server. In simulation of a 100 ms ± 30 ms link, probing
    /// every 2 s from the start gave a p95 error of 5.9 ms at 10 s; this
    /// schedule gives 3.5 ms.
    public func probeDelay(afterConnectingFor elapsed: Double) -> Double {
        switch elapsed {
        case ..<10_000: 250
        case ..<60_000: 1_000
        default: 5_000
        }
    }

    /// The station's WebSocket URL, resuming from `revision` when known.
    func liveURL(since revision: Int64?, deviceKey: String) -> String {
        var base = serverURL
        if base.hasSuffix("/") { base.removeLast() }
        if base.hasPrefix("https://") {
            base = "wss://" + base.dropFirst("https://".count)
        } else if base.hasPrefix("http://") {
            base = "ws://" + base.dropFirst("http://".count)
        }
        var query = ["v=\(LiveProtocol.version)", "listener=\(deviceKey)"]
        if let revision { query.append("since=\(revision)") }
        return "\(base)/api/stations/\(stationID)/live?" + query.joined(separator: "&")
    }
}

import WavelengthWire

public enum ClientError: Error, Sendable, Equatable {
    /// The server refused the command.
    case refused(code: String, message: String)
    /// The client was stopped before an answer came.
    case stopped
    /// The chat message couldn't be sent, or the connection dropped before
    /// the server answered: it may or may not have been kept.
    case notConnected
}
