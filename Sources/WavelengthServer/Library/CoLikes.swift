import WavelengthCore

/// The bounds of a co-like read: whatever the data, one read touches at
/// most `fans` × `recentPerPerson` liked songs, so a song with a huge
/// following, or an account that saves thousands, costs no more.
enum CoLikes {
    /// The room's favourite songs looked up.
    static let seeds = 10
    /// The most recent savers of those songs read.
    static let fans = 500
    /// Each saver's newest songs counted.
    static let recentPerPerson = 100
    /// The co-liked songs kept, most shared first.
    static let tracks = 200
    /// A pair saved by one person alone is no pattern, and the reason a
    /// listener reads ("people who like …") would point at that person.
    static let leastPeople = 2
    /// How long a read serves before it is read again (new likes arrive).
    static let freshFor: EpochMillis = 5 * 60 * 1000
}
