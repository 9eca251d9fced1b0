import Logging
import WavelengthCore
import WavelengthStorage

/// What every station hub needs from the rest of the server.
struct StationContext: Sendable {
    let repository: any StationRepository
    let access: any StationAccessRepository
    let catalog: LibraryCatalog
    let clock: any ServerClock
    let robot: RobotDJ
    let logger: Logger
    /// How long a dropped DJ has to come back before a listener is promoted.
    let djGracePeriod: Duration
    /// How far ahead skips and resumes take effect, in ms.
    let commitLead: Int64
}
