import WavelengthWire
import Hummingbird
import WavelengthCore

/// The server's failure counters: code guesses per address and per station,
/// logins per address and per handle. Refusals are 429s with `Retry-After`.
actor AttemptGuard {
    private var joinByAddress = AttemptLimiter(policy: .joinPerAddress)
    private var joinByStation = AttemptLimiter(policy: .joinPerStation)
    private var loginByAddress = AttemptLimiter(policy: .loginPerAddress)
    private var loginByHandle = AttemptLimiter(policy: .loginPerHandle)
    private let clock: any ServerClock

    init(clock: any ServerClock) {
        self.clock = clock
    }

    // MARK: Joining by code or invite

    func checkJoin(address: String) throws {
        if case .lockedOut(let wait) = joinByAddress.check(address, at: clock.now()) {
            throw Self.refusal(
                code: .lockedOut, wait: wait,
                "Too many wrong codes from your network. Try again in \(Self.describe(wait)).")
        }
    }

    func checkJoin(station: StationID) throws {
        if case .lockedOut(let wait) = joinByStation.check(station, at: clock.now()) {
            throw Self.refusal(
                code: .stationLocked, wait: wait,
                "This station has had too many wrong codes; joining by code is paused for \(Self.describe(wait)). An invite link still works."
            )
        }
    }

    func joinFailed(address: String, station: StationID?) {
        let now = clock.now()
        joinByAddress.recordFailure(address, at: now)
        if let station { joinByStation.recordFailure(station, at: now) }
    }

    // MARK: Logging in

    func checkLogin(address: String, handle: String) throws {
        let now = clock.now()
        for decision in [loginByAddress.check(address, at: now), loginByHandle.check(handle, at: now)] {
            if case .lockedOut(let wait) = decision {
                throw Self.refusal(
                    code: .rateLimited, wait: wait, "Too many failed sign-ins. Try again in \(Self.describe(wait)).")
            }
        }
    }

    func loginFailed(address: String, handle: String) {
        let now = clock.now()
        loginByAddress.recordFailure(address, at: now)
        loginByHandle.recordFailure(handle, at: now)
    }

    func loginSucceeded(handle: String) {
        loginByHandle.reset(handle)
    }

    // MARK: Answers

    private static func refusal(code: ErrorCode, wait: Int64, _ message: String) -> APIError {
        var error = APIError(.tooManyRequests, code: code, message)
        error.headers[.retryAfter] = String(max(1, (wait + 999) / 1000))
        return error
    }

    private static func describe(_ ms: Int64) -> String {
        let minutes = (ms + 59_999) / 60_000
        if minutes < 2 { return "a minute" }
        if minutes < 120 { return "\(minutes) minutes" }
        return "\((minutes + 59) / 60) hours"
    }
}
