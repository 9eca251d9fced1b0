import WavelengthCore

/// A station another server on this network announces (`GET /api/nearby`).
public struct NearbyStationView: Sendable, Codable, Equatable {
    public var stationID: StationID
    public var name: String
    public var frequency: String?
    public var mode: ProgrammingMode
    /// Whether its access code is needed to listen.
    public var needsCode: Bool
    /// The other server's base URL, as found on the LAN.
    public var serverURL: String
    /// The station's page in the web app there.
    public var stationURL: String

    public init(_ station: NearbyStation) {
        stationID = station.announcement.stationID
        name = station.announcement.name
        frequency = station.announcement.frequency
        mode = station.announcement.mode
        needsCode = station.announcement.needsCode
        serverURL = station.serverURL
        stationURL = station.serverURL + "/#/station/" + station.announcement.stationID
    }
}

/// `GET /api/nearby`: what other servers on this network announce.
public struct NearbyList: Sendable, Codable, Equatable {
    /// Whether this server looks (mDNS is on), so an empty list means
    /// nothing was found rather than nobody looked.
    public var browsing: Bool
    public var stations: [NearbyStationView]

    public init(browsing: Bool, stations: [NearbyStationView]) {
        self.browsing = browsing
        self.stations = stations
    }
}
