/// A station's chat while the server runs: the last messages (what a
/// newcomer sees), who is muted until when, slow mode, and each person's
/// recent posts for the rate limit. A value type; the clock comes in.
public struct ChatRoom: Sendable, Equatable {
    /// The messages a newcomer gets on joining.
    public static let recentLimit = 50
    /// The mutes a moderator can choose from, in minutes.
    public static let muteMinutes: Set<Int> = [15, 30, 60]
    public static let slowModeRange = 0...300
    /// Everyone, moderators too: at most this many messages in `rateWindow`.
    public static let rateLimit = 5
    public static let rateWindow: EpochMillis = 10_000
    /// Messages storage keeps per station, at most, whatever the retention.
    public static let keptPerStation = 10_000
    /// Mutes held at once per station; expired ones are dropped first.
    public static let maxMutes = 1_000

    /// What storage keeps between runs.
    public struct Saved: Sendable, Equatable {
        /// The newest messages, oldest first.
        public var recent: [ChatMessage]
        public var mutes: [String: EpochMillis]
        public var slowModeSeconds: Int

        public init(recent: [ChatMessage] = [], mutes: [String: EpochMillis] = [:], slowModeSeconds: Int = 0) {
            self.recent = recent
            self.mutes = mutes
            self.slowModeSeconds = slowModeSeconds
        }

        /// Without the messages sent before `instant` (past the retention).
        public func keeping(since instant: EpochMillis) -> Saved {
            Saved(recent: recent.filter { $0.sentAt >= instant }, mutes: mutes, slowModeSeconds: slowModeSeconds)
        }
    }

    public private(set) var recent: [ChatMessage]
    /// Person → the instant their mute ends.
    public private(set) var mutes: [String: EpochMillis]
    public private(set) var slowModeSeconds: Int
    /// Each poster's latest message times, newest last, at most `rateLimit`.
    private var posts: [String: [EpochMillis]] = [:]
    /// Raised on every change a newcomer would see, so a view built for one
    /// can be reused until the next.
    public private(set) var version: Int = 0

    public init(_ saved: Saved = Saved()) {
        self.recent = Array(saved.recent.suffix(Self.recentLimit))
        self.mutes = saved.mutes
        self.slowModeSeconds = saved.slowModeSeconds
    }

    /// When `personID`'s mute ends, if they are muted at `now`.
    public func mutedUntil(_ personID: String, at now: EpochMillis) -> EpochMillis? {
        mutes[personID].flatMap { $0 > now ? $0 : nil }
    }

    /// The mutes still running at `now`.
    public func activeMutes(at now: EpochMillis) -> [String: EpochMillis] {
        mutes.filter { $0.value > now }
    }

    /// Checks a message and takes it in: muted people, empty, overlong and
    /// control-laden text, slow mode (not for moderators) and the rate limit
    /// are refused, and a refused message leaves no trace.
    public mutating func post(_ raw: String, id: String, by author: ChatAuthor, at now: EpochMillis) throws(ChatError)
        -> ChatMessage
    {
        if let until = mutedUntil(author.personID, at: now) { throw .muted(until: until) }
        let text = try ChatText.checked(raw)
        let mine = (posts[author.personID] ?? []).filter { $0 > now - Self.rateWindow }
        if slowModeSeconds > 0, !author.isModerator, let last = posts[author.personID]?.last,
            now < last + Int64(slowModeSeconds) * 1000
        {
            throw .slowMode(seconds: slowModeSeconds, retryAt: last + Int64(slowModeSeconds) * 1000)
        }
        if mine.count >= Self.rateLimit {
            throw .tooFast(
                limit: Self.rateLimit, windowSeconds: Int(Self.rateWindow / 1000), retryAt: mine[0] + Self.rateWindow)
        }
        posts[author.personID] = Array((mine + [now]).suffix(Self.rateLimit))
        forgetQuietPosters(at: now)
        let message = ChatMessage(
            id: id, personID: author.personID, name: author.name, handle: author.handle, text: text, sentAt: now)
        recent.append(message)
        if recent.count > Self.recentLimit { recent.removeFirst(recent.count - Self.recentLimit) }
        version += 1
        return message
    }

    /// Keeps `posts` to the people whose posts still count for a limit.
    private mutating func forgetQuietPosters(at now: EpochMillis) {
        guard posts.count > 256 else { return }
        let horizon = now - max(Self.rateWindow, Int64(slowModeSeconds) * 1000)
        posts = posts.filter { ($0.value.last ?? 0) > horizon }
    }

    /// Takes messages out of the recent ones (storage deletes them all,
    /// recent or not).
    public mutating func delete(_ ids: Set<String>) {
        recent.removeAll { ids.contains($0.id) }
        version += 1
    }

    /// Takes everything `personID` wrote out; answers the ids it held.
    public mutating func deleteAll(by personID: String) -> [String] {
        let ids = recent.filter { $0.personID == personID }.map(\.id)
        recent.removeAll { $0.personID == personID }
        version += 1
        return ids
    }

    public mutating func clear() {
        recent = []
        version += 1
    }

    /// Mutes `personID` for `minutes` (15, 30 or 60) from `now`; answers
    /// when it ends. A second mute replaces the first.
    public mutating func mute(_ personID: String, minutes: Int, at now: EpochMillis) throws(ChatError) -> EpochMillis {
        guard Self.muteMinutes.contains(minutes) else { throw .invalidMute }
        mutes = mutes.filter { $0.value > now }
        guard mutes.count < Self.maxMutes || mutes[personID] != nil else { throw .tooManyMutes(limit: Self.maxMutes) }
        let until = now + Int64(minutes) * 60_000
        mutes[personID] = until
        version += 1
        return until
    }

    public mutating func unmute(_ personID: String) {
        mutes[personID] = nil
        version += 1
    }

    public mutating func setSlowMode(_ seconds: Int) throws(ChatError) {
        guard Self.slowModeRange.contains(seconds) else { throw .invalidSlowMode }
        slowModeSeconds = seconds
        version += 1
    }

    /// Marks a change a newcomer would see that the room itself doesn't
    /// hold (the chat turned on or off, the song's reactions).
    mutating func touch() {
        version += 1
    }
}
