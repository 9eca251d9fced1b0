import WavelengthCore

/// One message a person wrote, with the station it was in.
public struct AuthoredMessage: Sendable, Equatable {
    public var stationID: StationID
    public var message: ChatMessage

    public init(stationID: StationID, message: ChatMessage) {
        self.stationID = stationID
        self.message = message
    }
}

/// What a person made across the server, for "Download my data": read by
/// the person, never anyone else.
public protocol PersonalDataRepository: Sendable {
    /// Their chat messages in every station, newest first.
    func chatMessages(by personID: String, limit: Int) async throws -> [AuthoredMessage]
    /// The voice clips they sent to any station, newest first.
    func clips(by personID: String, limit: Int) async throws -> [VoiceClip]
}
