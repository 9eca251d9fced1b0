/// A live source takes over the station (issue 13): its entry is cut into
/// the timeline like a skip, so every client changes over at the same
/// instant, and when the source leaves the entry ends a grace period later
/// (the source may come back to it), after which the songs lined up behind
/// it play.
extension StationMachine {
    /// A source came on the air with `entry` (its track id names the
    /// person, `why` the show's title). Works while nobody listens too: a
    /// listener who arrives later finds the show on.
    public mutating func liveStarted(_ entry: TimelineEntry, at now: EpochMillis) -> [HubAction] {
        var next = station
        let outcome = next.goLive(entry, at: now, lead: settings.commitLead)
        station = next
        return liveChanged(outcome, at: now)
    }

    /// The source of `trackID`'s live entry is still on the air: scheduled
    /// on for another day (see `StationState.renewLive`).
    public mutating func liveRenewed(trackID: TrackID, at now: EpochMillis) -> [HubAction] {
        var next = station
        let outcome = next.renewLive(trackID: trackID, at: now)
        station = next
        return liveChanged(outcome, at: now)
    }

    /// The source of `trackID`'s live entry left.
    public mutating func liveLeft(trackID: TrackID, grace: Int64, at now: EpochMillis) -> [HubAction] {
        var next = station
        let outcome = next.liveLeft(trackID: trackID, at: now, grace: grace)
        station = next
        return liveChanged(outcome, at: now)
    }

    /// A song was recognised in the live show's audio: it is kept in
    /// history now.
    public mutating func heardOnLive(_ entry: TimelineEntry, at now: EpochMillis) -> [HubAction] {
        var next = station
        let outcome = next.heardOnLive(entry)
        station = next
        return liveChanged(outcome, at: now)
    }

    private mutating func liveChanged(_ outcome: StationState.Outcome, at now: EpochMillis) -> [HubAction] {
        guard outcome.needsSave else { return [] }
        var actions: [HubAction] = [.save(save(outcome, command: nil))]
        if outcome.changed, !connections.isEmpty { actions.append(.broadcastUpdate) }
        return actions + reschedule(at: now)
    }
}
