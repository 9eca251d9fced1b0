/// One message in a station's chat, as kept and as sent.
public struct ChatMessage: Sendable, Equatable, Codable {
    public var id: String
    public var personID: String
    /// The author's display name when they posted.
    public var name: String
    /// The author's handle; nil for a guest, who has none.
    public var handle: String?
    /// The checked text (`ChatText.checked`): shown as text, never as markup.
    public var text: String
    public var sentAt: EpochMillis

    public init(id: String, personID: String, name: String, handle: String?, text: String, sentAt: EpochMillis) {
        self.id = id
        self.personID = personID
        self.name = name
        self.handle = handle
        self.text = text
        self.sentAt = sentAt
    }

    /// The handles the text names with `@handle`, each once, in order.
    public var mentions: [String] { ChatText.mentions(in: text) }
}

/// Who is posting, as the station sees them.
public struct ChatAuthor: Sendable, Equatable {
    public var personID: String
    public var name: String
    public var handle: String?
    /// The owner and co-DJs: slow mode doesn't apply to them.
    public var isModerator: Bool

    public init(personID: String, name: String, handle: String?, isModerator: Bool) {
        self.personID = personID
        self.name = name
        self.handle = handle
        self.isModerator = isModerator
    }
}
