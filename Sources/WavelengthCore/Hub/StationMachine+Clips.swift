/// Voice clips between songs (issue 14): an approved clip goes on the
/// timeline right after the song that plays, behind any clip already
/// waiting there, so it plays in sync everywhere like a track.
extension StationMachine {
    /// Puts `clip` on the air next. Only while someone listens: a quiet
    /// station has no "between songs" to put it in.
    public mutating func clipApproved(_ clip: VoiceClip, at now: EpochMillis, using rng: inout some RandomNumberGenerator)
        throws(HubError) -> [HubAction]
    {
        guard !connections.isEmpty, station.isOnAir else { throw .notOnAir }
        var next = station
        let outcome: StationState.Outcome
        do {
            outcome = try next.insertVoice(
                TimelineEntry(
                    id: EntryIDs.make(using: &rng), trackID: clip.trackID, start: now, duration: clip.durationMs,
                    source: .voice, why: clip.note.isEmpty ? "A voice clip from \(clip.name)" : clip.note),
                at: now)
        } catch {
            throw .timeline(error)
        }
        station = next
        return [.save(save(outcome, command: nil)), .broadcastUpdate] + reschedule(at: now)
    }

    /// A guest sent a clip for approval: the owner and co-DJs listening are told.
    public func clipWaiting(_ clip: VoiceClip) -> [HubAction] {
        connections.filter { !$0.closing && $0.seat.role >= .codj }.map { .send($0.id, .clipWaiting(clip)) }
    }
}
