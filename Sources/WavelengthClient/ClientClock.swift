import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The client's own clock, in milliseconds. Monotonic: it never jumps when
/// the wall clock is set, so the offset to the server stays meaningful.
public protocol ClientClock: Sendable {
    func now() -> Double
}

public struct MonotonicClock: ClientClock {
    public init() {}

    public func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) * 1000 + Double(spec.tv_nsec) / 1_000_000
    }
}

/// A clock that is deliberately wrong by `offset` ms and runs `skew` fast
/// (50 ppm = 50e-6). Every process on one machine shares the kernel clock,
/// so benchmarks inject error to show the estimator actually removes it.
public struct DistortedClock: ClientClock {
    public let base: any ClientClock
    public let offset: Double
    public let skew: Double
    private let origin: Double

    public init(base: any ClientClock = MonotonicClock(), offset: Double, skew: Double) {
        self.base = base
        self.offset = offset
        self.skew = skew
        self.origin = base.now()
    }

    public func now() -> Double {
        let t = base.now()
        return t + offset + (t - origin) * skew
    }
}
