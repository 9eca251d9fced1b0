/// What the robot DJ may pick from when the station fills its schedule:
/// the station's chosen pool, the whole library as the fallback, and each
/// track's artist (so it can avoid the same artist twice in a row). The hub
/// reads these from storage before it hands an event to the machine.
public struct RobotInputs: Sendable {
    public var pool: [PoolTrack]
    public var fallback: [PoolTrack]
    public var artists: [TrackID: String]
    /// The host's playlist (the station's chosen pool; empty when none is
    /// chosen): what guests may ask for when the host limits requests to it.
    public var playlist: Set<TrackID>

    public init(pool: [PoolTrack], fallback: [PoolTrack], artists: [TrackID: String], playlist: Set<TrackID> = []) {
        self.pool = pool
        self.fallback = fallback
        self.artists = artists
        self.playlist = playlist
    }

    /// A track of the pool or the library, by id.
    public func track(_ id: TrackID) -> PoolTrack? {
        pool.first { $0.id == id } ?? fallback.first { $0.id == id }
    }

    public static let none = RobotInputs(pool: [], fallback: [], artists: [:])
}
