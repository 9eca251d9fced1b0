import WavelengthWire

/// The tracks every connection of one station holds, as far as the hub can
/// tell: what an `update` may name by id alone to clients that take compact
/// updates (see `KnownTracks`). It never claims more than they hold; when
/// it can't tell, it claims less, and a client that still meets a track it
/// lacks asks for a snapshot.
///
/// A client holds the tracks of the last window it accepted, and accepts a
/// window unless it already has a newer revision.
struct SharedTracks {
    private(set) var known = KnownTracks()
    /// The newest revision any connection was sent.
    private var revision: Int64?

    /// Every connection was sent `window`.
    mutating func broadcast(_ window: TimelineWindow) {
        if let revision, window.revision < revision {
            // Clients that already have a newer window ignore this one.
            known = known.shared(with: KnownTracks(window))
        } else {
            known = KnownTracks(window)
            revision = window.revision
        }
    }

    /// One connection was sent `window` (its snapshot): it holds only what
    /// that window names.
    mutating func sent(_ window: TimelineWindow) {
        known = known.shared(with: KnownTracks(window))
        revision = max(revision ?? window.revision, window.revision)
    }
}
