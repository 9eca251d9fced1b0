import WavelengthCore

/// Who holds one live connection, and what they may do on the station.
struct Seat: Sendable, Equatable {
    var personID: String?
    var name: String
    var role: StationRole

    static let anonymous = Seat(personID: nil, name: "A listener", role: .listener)
}
