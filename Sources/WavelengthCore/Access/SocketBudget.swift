/// How many live sockets (station WebSockets) the server holds open, and for
/// whom: one address can't take the machine's file descriptors, a party of
/// 100 phones behind one NAT still gets in, and a reserve stays for signed-in
/// listeners and for everything that isn't a live socket (`/health`, the
/// API, audio).
///
/// A value type with no I/O; the server keeps one behind a lock.
public struct SocketBudget: Sendable, Equatable {
    public struct Limits: Sendable, Equatable {
        /// Live sockets in all.
        public var total: Int
        /// Of `total`, how many only signed-in people may use.
        public var signedInReserve: Int
        /// Sockets of anonymous listeners and guests from one address.
        public var perAddress: Int
        /// Sockets of one person (signed in or a guest): their tabs and devices.
        public var perPerson: Int

        public init(total: Int, signedInReserve: Int, perAddress: Int, perPerson: Int) {
            self.total = total
            self.signedInReserve = signedInReserve
            self.perAddress = perAddress
            self.perPerson = perPerson
        }

        /// Limits for a process that may hold `fileLimit` descriptors: an
        /// eighth (at least 64) stays outside live sockets, a tenth of the
        /// rest (at least 32) for signed-in people alone; 256 per address
        /// (100 phones at a party, each with a tab or two), 16 per person.
        public static func forFileLimit(_ fileLimit: Int) -> Limits {
            let outside = max(64, fileLimit / 8)
            let total = max(16, fileLimit - outside)
            return Limits(total: total, signedInReserve: max(min(32, total / 2), total / 10), perAddress: 256, perPerson: 16)
        }

        /// No limits (load generators measuring the server itself).
        public static let unbounded = Limits(total: .max, signedInReserve: 0, perAddress: .max, perPerson: .max)
    }

    /// Who a socket is for.
    public struct Holder: Sendable, Hashable {
        public var address: String
        /// The person, when signed in or a guest.
        public var personID: String?
        /// Signed in with an account (not a guest, not anonymous).
        public var signedIn: Bool

        public init(address: String, personID: String?, signedIn: Bool) {
            self.address = address
            self.personID = personID
            self.signedIn = signedIn
        }
    }

    /// Why a socket was refused.
    public enum Refusal: Error, Sendable, Equatable {
        case serverFull
        case addressFull(limit: Int)
        case personFull(limit: Int)

        public var message: String {
            switch self {
            case .serverFull: "The server has as many listeners as it can hold; sign in, or try again soon."
            case .addressFull(let limit):
                "Your network already has \(limit) listeners open here; close one or sign in."
            case .personFull(let limit): "You already have \(limit) stations open; close one first."
            }
        }
    }

    public let limits: Limits
    public private(set) var open = 0
    public private(set) var byAddress: [String: Int] = [:]
    public private(set) var byPerson: [String: Int] = [:]

    public init(limits: Limits) {
        self.limits = limits
    }

    /// Takes a socket for `holder`, or says why not.
    public mutating func admit(_ holder: Holder) throws(Refusal) {
        let ceiling = holder.signedIn ? limits.total : limits.total - limits.signedInReserve
        guard open < ceiling else { throw .serverFull }
        if let person = holder.personID, byPerson[person, default: 0] >= limits.perPerson {
            throw .personFull(limit: limits.perPerson)
        }
        if !holder.signedIn, byAddress[holder.address, default: 0] >= limits.perAddress {
            throw .addressFull(limit: limits.perAddress)
        }
        open += 1
        if let person = holder.personID { byPerson[person, default: 0] += 1 }
        if !holder.signedIn { byAddress[holder.address, default: 0] += 1 }
    }

    /// Gives back a socket `admit` took.
    public mutating func release(_ holder: Holder) {
        open = max(0, open - 1)
        if let person = holder.personID { byPerson[person] = Self.less(byPerson[person]) }
        if !holder.signedIn { byAddress[holder.address] = Self.less(byAddress[holder.address]) }
    }

    private static func less(_ count: Int?) -> Int? {
        guard let count, count > 1 else { return nil }
        return count - 1
    }
}
