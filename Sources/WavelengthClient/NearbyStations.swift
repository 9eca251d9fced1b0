@_exported import struct WavelengthCore.NearbyAnnouncement
@_exported import struct WavelengthCore.NearbyStation
import Logging
import WavelengthNearby

/// The stations announced on the local network, for an app's "nearby"
/// list (seed 001's Bonjour browser): Avahi on Linux, `NWBrowser` on Apple
/// platforms. `stations` is what is known now; `changes()` follows it.
/// Tune in with a `StationClient` on `station.serverURL` and
/// `station.announcement.stationID`.
public typealias NearbyStations = NearbyBrowser
