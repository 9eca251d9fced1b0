/// The robot DJ learns what the room likes from how it reacts (issue 11,
/// section 5): thumbs, skips, songs heard to the end, requests and votes
/// each teach the station's `TasteModel`, and what changed is saved with
/// the event that taught it.
extension StationMachine {
    /// The room reacted to a track. A track the library no longer has
    /// teaches nothing.
    mutating func learn(_ signal: TasteSignal, trackID: TrackID, robot: RobotInputs) {
        guard let track = robot.track(trackID) else { return }
        tasteChange.merge(taste.learn(signal, features: track.tasteFeatures))
    }

    /// Songs that played to their end while people listened are a faint
    /// "yes"; a skipped one was already learned as a "no" when skipped.
    mutating func learnCompletions(_ played: [TimelineEntry], robot: RobotInputs) {
        guard !connections.isEmpty else { return }
        for entry in played where entry.offset == 0 {
            guard let track = robot.track(entry.trackID), entry.duration >= track.duration else { continue }
            tasteChange.merge(taste.learn(.completed, features: track.tasteFeatures))
        }
    }

    /// What the taste learned since the last save, handed to that save.
    mutating func takeTasteChange() -> TasteModel.Change? {
        guard !tasteChange.isEmpty else { return nil }
        defer { tasteChange = TasteModel.Change() }
        return tasteChange
    }
}
