/// Milliseconds since the Unix epoch on the server's clock.
///
/// Every instant in the timeline is absolute, so "what plays now" is a pure
/// function of the timeline and the clock and never needs to be stored.
public typealias EpochMillis = Int64

/// A library track's stable identity (it survives the file being moved).
public typealias TrackID = String

/// One scheduled play of a track in a station's timeline.
public typealias EntryID = String

public typealias StationID = String
