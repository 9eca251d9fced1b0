import Hummingbird
import WavelengthWire

/// `GET /api/nearby`: the stations other Wavelength servers on this network
/// announce, for the web app's "On this network" (a browser can't browse
/// mDNS itself). Everything here was announced to the whole LAN already.
struct NearbyController {
    let nearby: NearbyService?

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/api/nearby", use: list)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> NearbyList {
        NearbyList(browsing: nearby != nil, stations: (nearby?.others ?? []).prefix(100).map(NearbyStationView.init))
    }
}
