import WavelengthCore
import WavelengthWire

/// The track summaries one revision of a timeline shows, so a crowd joining
/// at once reads them from storage once, not once per listener. A new
/// revision starts it afresh, so a rescan's changes show from the station's
/// next change on.
struct RevisionTracks {
    private var revision: Int64 = -1
    private(set) var tracks: [TrackID: TrackSummary] = [:]

    /// The ids of `ids` not read yet for `revision`.
    mutating func missing(_ ids: [TrackID], at revision: Int64) -> [TrackID] {
        if self.revision != revision { (self.revision, tracks) = (revision, [:]) }
        return ids.filter { tracks[$0] == nil }
    }

    /// `known` (what was read before storage was asked) with `fetched`; kept
    /// unless the revision moved on while storage answered.
    mutating func add(
        _ fetched: [TrackID: TrackSummary], to known: [TrackID: TrackSummary], at revision: Int64
    ) -> [TrackID: TrackSummary] {
        let all = known.merging(fetched) { _, fetched in fetched }
        if self.revision == revision { tracks = all }
        return all
    }
}

extension SharedTracks {
    /// Offers the update to every queue: compact to clients that take it,
    /// whole to the rest, each copy encoded once. Answers the connections
    /// too far behind to take it (to be closed: they reconnect and catch up).
    mutating func offerUpdate(_ window: TimelineWindow, to queues: [ConnectionID: any ListenerQueue]) -> [ConnectionID] {
        let message = ServerMessage.update(window)
        let compact = queues.values.contains { $0.compactUpdates } ? try? StationHub.encode(message, naming: known) : nil
        let whole = queues.values.contains { !$0.compactUpdates } ? try? StationHub.encode(message) : nil
        broadcast(window)
        var behind: [ConnectionID] = []
        for (connection, queue) in queues {
            guard let text = queue.compactUpdates ? compact : whole else { continue }
            if !queue.offer(.text(text)) { behind.append(connection) }
        }
        return behind
    }
}
