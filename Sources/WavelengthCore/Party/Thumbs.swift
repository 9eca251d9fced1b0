/// One person's thumb on one play of a song: what the room thought of it,
/// kept for the DJ's feedback now and for the robot DJ to learn from later.
public struct Thumb: Sendable, Equatable {
    public var entryID: EntryID
    public var trackID: TrackID
    public var personID: String
    /// Up or down; nil takes the thumb back.
    public var up: Bool?
    public var at: EpochMillis

    public init(entryID: EntryID, trackID: TrackID, personID: String, up: Bool?, at: EpochMillis) {
        self.entryID = entryID
        self.trackID = trackID
        self.personID = personID
        self.up = up
        self.at = at
    }
}

/// The thumbs on the song playing now, one per person; a new song starts
/// from none.
public struct ThumbTally: Sendable, Equatable {
    public private(set) var entryID: EntryID?
    public private(set) var thumbs: [String: Bool] = [:]

    public init() {}

    /// `person` gives `entry` a thumb (nil takes it back); a second replaces the first.
    public mutating func set(_ up: Bool?, by person: String, on entry: EntryID) {
        if entry != entryID {
            entryID = entry
            thumbs = [:]
        }
        thumbs[person] = up
    }

    public func counts(on entry: EntryID) -> (up: Int, down: Int) {
        guard entry == entryID else { return (0, 0) }
        return (thumbs.values.count { $0 }, thumbs.values.count { !$0 })
    }
}
