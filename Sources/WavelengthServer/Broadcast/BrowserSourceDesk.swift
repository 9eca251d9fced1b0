import WavelengthCore

/// What a browser broadcast asks of the live sources: to go on the air,
/// and to name what it plays. `LiveSources` is the one the server uses;
/// a protocol so that tests can hold a decision back.
protocol BrowserSourceDesk: Sendable {
    func openBrowser(
        personID: String, stationID: StationID, title: String?, address: String, close: @escaping @Sendable () -> Void
    ) async -> LiveSources.Decision
    func retitle(stationID: StationID, personID: String, title: String) async
}

extension LiveSources: BrowserSourceDesk {}
