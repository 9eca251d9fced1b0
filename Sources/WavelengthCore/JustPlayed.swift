/// What a station shows under "Just played".
///
/// A hold (pause) or a seek splits the playing entry in two: the part heard
/// so far goes to history, and the rest, a new entry that starts further
/// into the same file, keeps playing. Storage keeps both pieces (they are
/// what went out on air), but shown as they are, the held track appeared
/// under "Just played" while it was still playing, and then a second time
/// when its rest ended. Here the pieces of one play are one row, and a play
/// whose rest is still on is not shown yet.
public enum JustPlayed {
    /// `history` oldest first (as StationState keeps it); the answer is
    /// newest first, at most `limit` rows. `current` is the entry playing
    /// now, or the next to start when nothing plays (nil when neither).
    public static func rows(history: [TimelineEntry], current: TimelineEntry?, limit: Int) -> [TimelineEntry] {
        var plays: [TimelineEntry] = []
        for piece in history {
            if let last = plays.last, continues(piece, last) {
                // One play cut in pieces: the first piece's id, start and
                // offset, with the time heard in all of them.
                plays[plays.count - 1].duration += piece.duration
            } else {
                plays.append(piece)
            }
        }
        if let current, let last = plays.last, continues(current, last) {
            plays.removeLast()
        }
        return Array(plays.reversed().prefix(max(0, limit)))
    }

    /// Whether `next` is the rest of the play `previous` began: the same
    /// track, after it, picked up partway into the file. (A seek back to
    /// 0:00 reads as a new play of the same track.)
    static func continues(_ next: TimelineEntry, _ previous: TimelineEntry) -> Bool {
        next.trackID == previous.trackID && next.offset > 0 && next.start >= previous.expiration
    }
}
