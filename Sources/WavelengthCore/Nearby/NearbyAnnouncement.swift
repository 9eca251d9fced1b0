/// A station announced on the local network over mDNS/DNS-SD (seed 001's
/// "available remote broadcasts in the area"): one `_wavelength._tcp`
/// service per station, on its server's HTTP port, with what a listener
/// needs in its TXT record.
public struct NearbyAnnouncement: Sendable, Equatable, Hashable {
    public static let serviceType = "_wavelength._tcp"
    /// The TXT record's version, so a later change can be told apart.
    public static let version = "1"

    /// The announcing server's instance (so a server can tell its own).
    public var serverID: String
    public var stationID: StationID
    public var name: String
    public var frequency: String?
    public var mode: ProgrammingMode
    /// Whether an access code is needed to listen.
    public var needsCode: Bool

    public init(
        serverID: String, stationID: StationID, name: String, frequency: String?, mode: ProgrammingMode, needsCode: Bool
    ) {
        self.serverID = serverID
        self.stationID = stationID
        self.name = name
        self.frequency = frequency
        self.mode = mode
        self.needsCode = needsCode
    }

    /// The service instance name: the station's name and frequency, within
    /// DNS's 63 bytes (Avahi picks another on a clash).
    public var instanceName: String {
        var name = self.name
        let suffix = frequency.map { " (\($0) FM)" } ?? ""
        while (name + suffix).utf8.count > 63, !name.isEmpty { name.removeLast() }
        return name + suffix
    }

    /// The TXT record's strings, each `key=value` within 255 bytes.
    public var txt: [String] {
        var strings = ["v=\(Self.version)", "sid=\(serverID)", "id=\(stationID)", "mode=\(mode.rawValue)"]
        if let frequency { strings.append("freq=\(frequency)") }
        strings.append("access=\(needsCode ? "code" : "open")")
        var name = "name=" + self.name
        while name.utf8.count > 255 { name.removeLast() }
        strings.append(name)
        return strings
    }

    /// Reads a TXT record back; nil when it isn't one of ours (another
    /// version, or keys missing).
    public init?(txt: [String]) {
        var fields: [String: String] = [:]
        for string in txt.prefix(32) {
            guard let equals = string.firstIndex(of: "=") else { continue }
            fields[String(string[..<equals])] = String(string[string.index(after: equals)...])
        }
        guard fields["v"] == Self.version, let server = fields["sid"], let station = fields["id"], !station.isEmpty,
            let name = fields["name"], let mode = fields["mode"].flatMap(ProgrammingMode.init(rawValue:))
        else { return nil }
        self.init(
            serverID: server, stationID: station, name: name, frequency: fields["freq"], mode: mode,
            needsCode: fields["access"] == "code")
    }
}

/// A station found on the local network: what it announced, and where.
public struct NearbyStation: Sendable, Equatable, Hashable {
    public var announcement: NearbyAnnouncement
    /// The address it was found at (IPv4 dotted, or IPv6).
    public var host: String
    public var port: Int

    public init(announcement: NearbyAnnouncement, host: String, port: Int) {
        self.announcement = announcement
        self.host = host
        self.port = port
    }

    /// The server's base URL.
    public var serverURL: String {
        host.contains(":") ? "http://[\(host)]:\(port)" : "http://\(host):\(port)"
    }
}
