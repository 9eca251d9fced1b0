/// Who is asking. Until accounts exist the only credential is a station's
/// owner key; handlers check a `Caller` so roles can be added here later.
public struct Caller: Sendable {
    public var ownerKey: String?

    public init(ownerKey: String?) {
        self.ownerKey = ownerKey
    }

    public static let anonymous = Caller(ownerKey: nil)
}
