/// A pre-accounts owner key. Since accounts exist it does one thing: a
/// signed-in person presents it once to claim the station it belongs to.
/// Only its SHA-256 is stored.
enum OwnerKey {
    static func generate() -> String {
        Secrets.randomBytes(32).map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0xf)]])
        }.joined()
    }

    static func hash(_ key: String) -> String {
        Secrets.hash(key)
    }
}
