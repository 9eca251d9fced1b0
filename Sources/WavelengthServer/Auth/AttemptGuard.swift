import Hummingbird
import WavelengthCore
import WavelengthStore
import WavelengthWire

/// The server's guessing limits, for access codes and passwords.
///
/// Each target has three or four limiters:
/// - the address, across every target, sized for a party behind one NAT;
/// - the target from that address (a station, a handle), so one person's
///   guessing never locks out someone elsewhere;
/// - for an access code, the target from that person, so a guest who
///   fumbles the code makes no one else on the same Wi-Fi wait;
/// - the target from every address, which slows only the addresses that
///   have guessed wrong there: a crowd of guessers can't sweep a code space,
///   and the real person still gets in.
///
/// An attempt is reserved on all its keys before the check runs and settled
/// after it (`attempt`), so concurrent guesses count as they start. Waits grow
/// from a minute to an hour; they are refused with 429 and `Retry-After`, and
/// survive a restart (`AttemptRepository`).
actor AttemptGuard {
    /// The limiters, by the name their lockouts are saved under.
    enum Limiter: String, CaseIterable, Sendable {
        case joinAddress = "join-address"
        case joinStationAddress = "join-station-address"
        case joinStationPerson = "join-station-person"
        case joinStation = "join-station"
        case loginAddress = "login-address"
        case loginHandleAddress = "login-handle-address"
        case loginHandle = "login-handle"
        case signupAddress = "signup-address"
        case guestAddress = "guest-address"
        case sourceAddress = "source-address"
        case reportAddress = "report-address"

        func policy(_ limits: Limits) -> AttemptLimiter.Policy {
            switch self {
            case .signupAddress: .newPeoplePerAddress(limits.signupsPerHour)
            case .guestAddress: .newPeoplePerAddress(limits.guestsPerHour)
            case .joinAddress: .joinPerAddress
            case .joinStationAddress: .joinPerStationAddress
            case .joinStationPerson: .joinPerStationPerson
            case .joinStation: .joinPerStation
            case .loginAddress: .loginPerAddress
            case .loginHandleAddress: .loginPerHandleAddress
            case .loginHandle: .loginPerHandle
            case .sourceAddress: .streamKeyPerAddress
            case .reportAddress: .newPeoplePerAddress(limits.reportsPerHour)
            }
        }
    }

    /// What an attempt is against.
    enum Target: Sendable {
        /// Anything that answers "wrong code" before a station is known.
        case join(address: String)
        /// An access code for one station, typed by a person.
        case station(StationID, address: String, person: String)
        case login(handle: String, address: String)
        /// A new account, or a new guest: each one counts, failed or not.
        case signup(address: String)
        case guest(address: String)
        /// A stream key sent by broadcast software.
        case source(address: String)
        /// A report filed: each one counts, kept or not.
        case report(address: String)

        var countsEveryAttempt: Bool {
            switch self {
            case .signup, .guest, .report: true
            case .join, .station, .login, .source: false
            }
        }
    }

    /// How many accounts, guests and reports one address may make in an
    /// hour. (`Target.countsEveryAttempt`: those count when they succeed
    /// too.) A report's own limits are per person (`ReportLimits`); this one
    /// holds the guests one address can make to file them.
    struct Limits: Sendable {
        var signupsPerHour = 20
        var guestsPerHour = 120
        var reportsPerHour = 30
    }

    private var limiters: [Limiter: AttemptLimiter]
    private let clock: any ServerClock
    private let store: (any AttemptRepository)?

    init(clock: any ServerClock, store: (any AttemptRepository)? = nil, limits: Limits = Limits()) {
        self.clock = clock
        self.store = store
        limiters = Dictionary(
            uniqueKeysWithValues: Limiter.allCases.map { ($0, AttemptLimiter(policy: $0.policy(limits))) })
    }

    /// Puts back the lockouts saved before a restart.
    func restore() async throws {
        guard let store else { return }
        for (name, lockout) in try await store.lockouts(activeAt: clock.now()) {
            guard let limiter = Limiter(rawValue: name) else { continue }
            limiters[limiter]?.restore([lockout])
        }
    }

    /// Runs `check` as one attempt against `target`. It is refused at once
    /// while the target is waiting; an error for which `isFailure` holds
    /// counts as a failed guess.
    func attempt<T: Sendable>(
        _ target: Target, isFailure: @Sendable (any Error) -> Bool, _ check: @Sendable () async throws -> T
    ) async throws -> T {
        let reservation = try reserve(target)
        do {
            let result = try await check()
            await finish(reservation, failed: target.countsEveryAttempt)
            return result
        } catch {
            await finish(reservation, failed: isFailure(error))
            throw error
        }
    }

    /// A successful login forgets the handle's failures from that address.
    func loginSucceeded(handle: String, address: String) {
        limiters[.loginHandleAddress]?.reset(Self.pair(handle, address))
    }

    // MARK: Reservations

    private struct Reservation {
        /// Keys the attempt was reserved on.
        var reserved: [(Limiter, String)]
        /// The crowd-wide key, when the attempt counts there without being
        /// held back by it.
        var counted: (Limiter, String)?
        var at: EpochMillis
    }

    /// The keys an attempt is reserved on, and the crowd-wide key.
    private func keys(of target: Target) -> (own: [(Limiter, String)], crowd: (Limiter, String)?) {
        switch target {
        case .join(let address):
            ([(.joinAddress, address)], nil)
        case .station(let station, let address, let person):
            (
                [(.joinStationPerson, Self.pair(station, person)), (.joinStationAddress, Self.pair(station, address))],
                (.joinStation, station)
            )
        case .login(let handle, let address):
            ([(.loginAddress, address), (.loginHandleAddress, Self.pair(handle, address))], (.loginHandle, handle))
        case .signup(let address):
            ([(.signupAddress, address)], nil)
        case .guest(let address):
            ([(.guestAddress, address)], nil)
        case .source(let address):
            ([(.sourceAddress, address)], nil)
        case .report(let address):
            ([(.reportAddress, address)], nil)
        }
    }

    private func reserve(_ target: Target) throws -> Reservation {
        let now = clock.now()
        let (own, crowd) = keys(of: target)
        // The crowd-wide wait holds back only addresses that have guessed
        // wrong here; for everyone else their attempts only count.
        let guessedHere = own.last.map { limiters[$0.0]!.hasFailed($0.1, at: now) } ?? false
        let held = own + (guessedHere ? [crowd].compactMap { $0 } : [])
        var reserved: [(Limiter, String)] = []
        for (limiter, key) in held {
            if case .lockedOut(let wait) = limiters[limiter]!.reserve(key, at: now) {
                for (done, doneKey) in reserved {
                    limiters[done]!.finish(doneKey, reservedAt: now, failed: false, at: now)
                }
                throw Self.refusal(limiter, wait: wait)
            }
            reserved.append((limiter, key))
        }
        return Reservation(reserved: reserved, counted: guessedHere ? nil : crowd, at: now)
    }

    private func finish(_ reservation: Reservation, failed: Bool) async {
        let now = clock.now()
        var tripped: [(Limiter, AttemptLimiter.Lockout)] = []
        for (limiter, key) in reservation.reserved {
            let decision = limiters[limiter]!.finish(key, reservedAt: reservation.at, failed: failed, at: now)
            if failed, case .lockedOut = decision, let lockout = limiters[limiter]!.lockout(of: key) {
                tripped.append((limiter, lockout))
            }
        }
        if failed, let (limiter, key) = reservation.counted,
            case .lockedOut = limiters[limiter]!.recordFailure(key, at: now),
            let lockout = limiters[limiter]!.lockout(of: key)
        {
            tripped.append((limiter, lockout))
        }
        guard let store else { return }
        for (limiter, lockout) in tripped {
            // A lockout that can't be saved still holds until a restart.
            try? await store.saveLockout(limiter: limiter.rawValue, lockout)
        }
    }

    // MARK: Answers

    private static func pair(_ target: String, _ address: String) -> String {
        "\(target)@\(address)"
    }

    private static func refusal(_ limiter: Limiter, wait: Int64) -> APIError {
        let message: String
        let code: ErrorCode
        switch limiter {
        case .joinAddress:
            code = .lockedOut
            message = "Too many wrong codes from your network. Try again in \(describe(wait))."
        case .joinStationAddress, .joinStationPerson:
            code = .lockedOut
            message = "Too many wrong codes for this station. Try again in \(describe(wait)), or ask the host for an invite link."
        case .joinStation:
            code = .stationLocked
            message = "This station has had too many wrong codes; try again in \(describe(wait)). An invite link still works."
        case .loginAddress, .loginHandleAddress, .loginHandle:
            code = .rateLimited
            message = "Too many failed sign-ins. Try again in \(describe(wait))."
        case .signupAddress:
            code = .rateLimited
            message = "Too many new accounts from your network. Try again in \(describe(wait))."
        case .guestAddress:
            code = .rateLimited
            message = "Too many new guests from your network. Try again in \(describe(wait))."
        case .sourceAddress:
            code = .rateLimited
            message = "Too many wrong stream keys. Try again in \(describe(wait))."
        case .reportAddress:
            code = .reportLimit
            message = "Too many reports from your network. Try again in \(describe(wait))."
        }
        var error = APIError(.tooManyRequests, code: code, message)
        error.headers[.retryAfter] = String(max(1, (wait + 999) / 1000))
        return error
    }

    private static func describe(_ ms: Int64) -> String {
        // Coarse on purpose: the same wait reads the same a moment later.
        if ms <= 10_000 { return "a few seconds" }
        let minutes = (ms + 59_999) / 60_000
        if minutes < 2 { return "a minute" }
        if minutes < 120 { return "\(minutes) minutes" }
        return "\((minutes + 59) / 60) hours"
    }
}
