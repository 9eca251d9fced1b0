/// The station's one count: app connections and stream listeners, by person.
extension StationMachine {
    /// A stream listener came or went (reported by the station's stream,
    /// which counts its players; the stream's own seat doesn't count).
    public enum StreamAudienceChange: Sendable, Equatable {
        case arrived(ListenerIdentity, ListenerKind)
        case left(ListenerIdentity, ListenerKind)
    }

    /// Who a seat is in the count: its person; when nobody is signed in,
    /// the device its players share (its device key), else this one
    /// connection, either from the seat's address.
    static func identity(of seat: Seat, on connection: ConnectionID) -> ListenerIdentity {
        seat.personID.map(ListenerIdentity.person)
            ?? seat.device.map { .device($0, address: seat.address) } ?? .connection(connection, address: seat.address)
    }

    public mutating func streamAudience(_ change: StreamAudienceChange, at now: EpochMillis) -> [HubAction] {
        switch change {
        case .arrived(let identity, let kind): arrived(identity, kind: kind, at: now)
        case .left(let identity, let kind): left(identity, kind: kind, at: now)
        }
    }

    mutating func arrived(_ identity: ListenerIdentity, kind: ListenerKind, at now: EpochMillis) -> [HubAction] {
        let before = audience.counts.listeners
        audience.arrive(identity, kind: kind, at: now)
        return audience.counts.listeners == before ? [] : counted(at: now)
    }

    mutating func left(_ identity: ListenerIdentity, kind: ListenerKind, at now: EpochMillis) -> [HubAction] {
        let before = audience.counts.listeners
        let departure = audience.leave(identity, kind: kind, at: now).departure
        var actions: [HubAction] = []
        if let departure {
            let ended = meter.departed(stayed: departure.stayed, at: now)
            if !ended.isEmpty { actions.append(.recordAudience(ended)) }
        }
        guard audience.counts.listeners != before else { return actions }
        return actions + counted(at: now)
    }

    /// The number of people changed (a second device or a relay changes
    /// none): everyone hears of it (at most once a second), and
    /// the minute's series takes it in.
    private mutating func counted(at now: EpochMillis) -> [HubAction] {
        playPeak = max(playPeak, audience.counts.listeners)
        var actions = countChanged(at: now, except: nil)
        let ended = meter.observe(count: audience.counts.listeners, at: now)
        if !ended.isEmpty { actions.append(.recordAudience(ended)) }
        return actions + minuteTimer()
    }

    /// The minute timer fired: keep the minutes that ended.
    mutating func meterAdvanced(to now: EpochMillis) -> [HubAction] {
        let ended = meter.advance(to: now)
        return (ended.isEmpty ? [] : [.recordAudience(ended)]) + minuteTimer()
    }

    /// A timer at the end of the open minute, only while one is open:
    /// a station nobody listens to keeps no timer.
    private mutating func minuteTimer() -> [HubAction] {
        guard let boundary = meter.nextBoundary else { return cancelTimer(.audienceMinute) }
        guard timers[.audienceMinute] != boundary else { return [] }
        return startTimer(.audienceMinute, at: boundary)
    }

    /// The audience minutes storage doesn't have yet at `now` (the open
    /// one, so far), for figures that must include this minute.
    public func unsavedAudience(at now: EpochMillis) -> [ListenerMinute] {
        meter.minutesSoFar(at: now)
    }
}
