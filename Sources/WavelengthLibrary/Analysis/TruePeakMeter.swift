import CTruePeak
import Foundation

/// The true peak: the largest magnitude of the audio oversampled 4× (2×
/// from 96 kHz, none from 192 kHz), as EBU R128 asks, so the peaks between
/// samples count too.
///
/// The interpolator is libebur128's own: a 49-tap Hann-windowed sinc split
/// into one phase per step between two samples. Phase 0 is the sample
/// itself; the others run eight samples at a time in C
/// (`wavelength_true_peak`), at about a tenth of what upsampling every
/// channel through libswresample cost. The loudness meter feeds it the
/// interleaved samples it measures.
///
/// A class: it lives for one file on one analysis thread and is never shared.
final class TruePeakMeter {
    /// The interpolated phases' coefficients, `phases` rows of `taps`:
    /// tap t of a row weighs the sample t before the one being read.
    struct Filter: Equatable {
        var phases: Int
        var taps: Int
        var coefficients: [Float]

        /// libebur128's `interp_create(49, factor)`.
        static func oversampling(_ factor: Int) -> Filter {
            let length = 49
            var rows = [[Float]](repeating: [], count: factor)
            for j in 0..<length {
                let m = Double(j) - Double(length - 1) / 2
                var c = 1.0
                if abs(m) > 0.000001 { c = sin(m * .pi / Double(factor)) / (m * .pi / Double(factor)) }
                c *= 0.5 * (1 - cos(2 * .pi * Double(j) / Double(length - 1)))
                // libebur128 drops the zeros; the sinc's leave phase 0 one tap, the sample itself.
                if abs(c) > 0.000001 { rows[j % factor].append(Float(c)) }
            }
            let interpolated = Array(rows.dropFirst())
            return Filter(phases: interpolated.count, taps: interpolated.first?.count ?? 0,
                          coefficients: interpolated.flatMap { $0 })
        }
    }

    let filter: Filter
    /// Asked of the processor once, thread-safely.
    static let processorHasAVX2 = wavelength_has_avx2() != 0
    private let usesAVX2: Bool
    private let channels: Int
    private let history: Int
    /// Per channel: `history` samples already run, then `held` not yet run
    /// (the C loop takes eight at a time), then room for the next feed.
    private var buffers: [UnsafeMutablePointer<Float>]
    private var capacity: Int
    private var held = 0
    private var largest: Float = 0

    /// `usesAVX2` false runs the portable loop (the tests check both).
    init(rate: Int, channels: Int, usesAVX2: Bool = TruePeakMeter.processorHasAVX2) {
        filter = .oversampling(rate < 96_000 ? 4 : rate < 192_000 ? 2 : 1)
        self.usesAVX2 = usesAVX2
        self.channels = max(1, channels)
        let history = max(0, filter.taps - 1)
        let capacity = history + 8 + 4_096
        self.history = history
        self.capacity = capacity
        buffers = (0..<max(1, channels)).map { _ in
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: capacity)
            buffer.initialize(repeating: 0, count: capacity)
            return buffer
        }
    }

    /// `frames` of interleaved samples, every channel's.
    func feed(_ samples: UnsafePointer<Float>, frames: Int) {
        guard frames > 0 else { return }
        reserve(history + held + frames)
        for channel in 0..<channels {
            let buffer = buffers[channel] + history + held
            // Wrapping arithmetic (the indices are far from overflowing) lets the loop vectorize.
            for frame in 0..<frames { buffer[frame] = samples[frame &* channels &+ channel] }
        }
        let total = held + frames
        let runnable = total / 8 * 8
        filter.coefficients.withUnsafeBufferPointer { coefficients in
            for buffer in buffers {
                largest = max(largest, wavelength_true_peak(
                    buffer + history, runnable, coefficients.baseAddress, Int32(filter.phases), Int32(filter.taps),
                    usesAVX2 ? 1 : 0))
                // What the next run reads before its first sample, and what it hasn't run.
                buffer.update(from: buffer + runnable, count: history + total - runnable)
            }
        }
        held = total - runnable
    }

    /// The largest magnitude of everything fed (1 is full scale).
    func finish() -> Float {
        for buffer in buffers {
            for index in history..<(history + held) {
                largest = max(largest, abs(buffer[index]))
                for phase in 0..<filter.phases {
                    var sum: Float = 0
                    for tap in 0..<filter.taps { sum += filter.coefficients[phase * filter.taps + tap] * buffer[index - tap] }
                    largest = max(largest, abs(sum))
                }
            }
        }
        held = 0
        return largest
    }

    private func reserve(_ count: Int) {
        guard count > capacity else { return }
        let kept = history + held
        buffers = buffers.map { old in
            let new = UnsafeMutablePointer<Float>.allocate(capacity: count)
            new.initialize(from: old, count: kept)
            (new + kept).initialize(repeating: 0, count: count - kept)
            old.deallocate()
            return new
        }
        capacity = count
    }

    deinit {
        for buffer in buffers { buffer.deallocate() }
    }
}
