// The true-peak interpolator's inner loop (`TruePeakMeter`): libebur128's
// 4x polyphase FIR over one channel, eight outputs at a time with clang's
// vector extensions, so a debug build runs it without Swift's checked
// arithmetic and generic SIMD (many times slower over a song's samples).
#include <stddef.h>

typedef float wavelength_floats8 __attribute__((vector_size(32), aligned(4)));

// The largest magnitude among `samples[0..<count]` and, between each and the
// one before it, the interpolated points: phase p at sample n is the sum
// over t of coefficients[p * taps + t] * samples[n - t]. `count` is a
// multiple of 8, and samples[-(taps - 1)..<0] are the channel's previous
// samples.
static inline float wavelength_true_peak(
    const float *samples, size_t count, const float *coefficients, int phases, int taps) {
    wavelength_floats8 largest = {0, 0, 0, 0, 0, 0, 0, 0};
    for (size_t n = 0; n + 8 <= count; n += 8) {
        largest = __builtin_elementwise_max(largest, __builtin_elementwise_abs(*(const wavelength_floats8 *)(samples + n)));
        for (int phase = 0; phase < phases; phase++) {
            const float *phaseCoefficients = coefficients + phase * taps;
            wavelength_floats8 sum = {0, 0, 0, 0, 0, 0, 0, 0};
            for (int tap = 0; tap < taps; tap++) {
                sum += phaseCoefficients[tap] * *(const wavelength_floats8 *)(samples + n - tap);
            }
            largest = __builtin_elementwise_max(largest, __builtin_elementwise_abs(sum));
        }
    }
    float result = 0;
    for (int lane = 0; lane < 8; lane++) {
        if (largest[lane] > result) result = largest[lane];
    }
    return result;
}
