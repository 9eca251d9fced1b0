/// Everyone listening to one station, by person, whatever they listen
/// with: one honest count.
///
/// Presences are counted, not stored: an arrival adds one to its identity
/// and kind, a departure takes one away. Because adding and taking away
/// commute, arrivals and departures that reach the station out of order
/// (a stream listener's, reported from another actor) still end at the
/// right count; an identity counts while its presences add up to more than
/// nothing.
///
/// Signed-out listeners count at most `anonymousPerAddress` to a client
/// address: a household or a café behind one address counts as the few
/// devices it has, and a script opening 256 sockets from one address counts
/// as 16, not 256. People count once each, wherever they are.
public struct Audience: Sendable, Equatable {
    /// The most signed-out listeners one address counts as.
    public static let anonymousPerAddress = 16
    /// The station's count, by kind.
    public struct Counts: Sendable, Equatable, Codable {
        /// People, each once however many devices and kinds they use.
        public var listeners: Int
        /// Presences by kind (a person on the app and the stream is one of each).
        public var app: Int
        public var stream: Int
        /// Relays and bots, each identity once.
        public var relays: Int
        public var bots: Int

        public init(listeners: Int = 0, app: Int = 0, stream: Int = 0, relays: Int = 0, bots: Int = 0) {
            self.listeners = listeners
            self.app = app
            self.stream = stream
            self.relays = relays
            self.bots = bots
        }
    }

    struct Member: Sendable, Equatable {
        var presences: [ListenerKind: Int] = [:]
        /// When this identity last started counting.
        var since: EpochMillis?
        /// A signed-out member's address, as it first arrived.
        var address: String?

        var countsAsPerson: Bool { presences.contains { $0.key.isPerson && $0.value > 0 } }
        var countsAsRelay: Bool { !countsAsPerson && (presences[.relay] ?? 0) > 0 }
        var countsAsBot: Bool { !countsAsPerson && !countsAsRelay && (presences[.bot] ?? 0) > 0 }
        var isEmpty: Bool { presences.values.allSatisfy { $0 == 0 } }
    }

    /// Someone who stopped counting, and how long they stayed.
    public struct Departure: Sendable, Equatable {
        public var identity: ListenerIdentity
        public var stayed: Int64
    }

    private var members: [ListenerIdentity: Member] = [:]
    /// Signed-out members counting as people, by address: the listeners
    /// count holds `min(n, anonymousPerAddress)` of each.
    private var anonymousAt: [String: Int] = [:]
    public private(set) var counts = Counts()
    /// The most people listening at once since the station woke.
    public private(set) var peak = 0

    public init() {}

    public var isEmpty: Bool { members.isEmpty }

    /// One more presence of `identity`. Returns whether the counts changed.
    @discardableResult
    public mutating func arrive(_ identity: ListenerIdentity, kind: ListenerKind, at now: EpochMillis) -> Bool {
        change(identity, kind: kind, by: 1, at: now).changed
    }

    /// One presence of `identity` fewer: the departure when it stops counting.
    @discardableResult
    public mutating func leave(_ identity: ListenerIdentity, kind: ListenerKind, at now: EpochMillis)
        -> (changed: Bool, departure: Departure?)
    {
        change(identity, kind: kind, by: -1, at: now)
    }

    private mutating func change(_ identity: ListenerIdentity, kind: ListenerKind, by delta: Int, at now: EpochMillis)
        -> (changed: Bool, departure: Departure?)
    {
        var member = members[identity] ?? Member(address: identity.address)
        let before = counts
        remove(member)
        let counted = member.countsAsPerson
        member.presences[kind, default: 0] += delta
        if member.presences[kind] == 0 { member.presences[kind] = nil }
        var departure: Departure?
        if !counted && member.countsAsPerson {
            member.since = now
        } else if counted && !member.countsAsPerson {
            departure = Departure(identity: identity, stayed: max(0, now - (member.since ?? now)))
            member.since = nil
        }
        add(member)
        peak = max(peak, counts.listeners)
        members[identity] = member.isEmpty ? nil : member
        return (counts != before, departure)
    }

    private mutating func remove(_ member: Member) { tally(member, sign: -1) }
    private mutating func add(_ member: Member) { tally(member, sign: 1) }

    private mutating func tally(_ member: Member, sign: Int) {
        if member.countsAsPerson {
            if let address = member.address {
                // Adding the n-th of an address counts when n ≤ the cap;
                // taking it away uncounts when n was ≤ the cap.
                let before = anonymousAt[address, default: 0]
                let after = before + sign
                anonymousAt[address] = after == 0 ? nil : after
                if max(before, after) <= Self.anonymousPerAddress { counts.listeners += sign }
            } else {
                counts.listeners += sign
            }
        }
        if member.countsAsRelay { counts.relays += sign }
        if member.countsAsBot { counts.bots += sign }
        counts.app += sign * max(0, member.presences[.app] ?? 0)
        counts.stream += sign * max(0, member.presences[.stream] ?? 0)
    }
}
