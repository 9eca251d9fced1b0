// The true-peak interpolator's inner loop (`TruePeakMeter`): libebur128's
// polyphase FIR over one channel, eight outputs at a time, in C so a debug
// build runs it without Swift's checked arithmetic and generic SIMD (many
// times slower over a song's samples).
#include <stddef.h>

typedef float wavelength_floats8 __attribute__((vector_size(32), aligned(4)));

// The largest magnitude among `samples[0..<count]` and, between each and the
// one before it, the interpolated points: phase p at sample n is the sum
// over t of coefficients[p * taps + t] * samples[n - t]. `count` is a
// multiple of 8, and samples[-(taps - 1)..<0] are the channel's previous
// samples.
static float wavelength_true_peak_portable(
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

#if defined(__x86_64__)
#include <immintrin.h>
// 4x oversampling (three phases of twelve taps, every rate under 96 kHz)
// on a processor with AVX2 and FMA: eight samples a register, and the
// phases' sums split in halves so six chains of products run side by side
// instead of waiting on one another.
__attribute__((target("avx2,fma")))
static float wavelength_true_peak_avx2(const float *samples, size_t count, const float *coefficients) {
    const __m256 magnitude = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    __m256 largest = _mm256_setzero_ps();
    // The 36 coefficients, each in every lane, loaded once.
    __m256 c[36];
    for (int index = 0; index < 36; index++) c[index] = _mm256_set1_ps(coefficients[index]);
    for (size_t n = 0; n + 8 <= count; n += 8) {
        const float *x = samples + n;
        __m256 early1 = _mm256_setzero_ps(), early2 = _mm256_setzero_ps(), early3 = _mm256_setzero_ps();
        __m256 late1 = _mm256_setzero_ps(), late2 = _mm256_setzero_ps(), late3 = _mm256_setzero_ps();
#define WAVELENGTH_TAP(t)                                                  \
        {                                                                  \
            __m256 early = _mm256_loadu_ps(x - (t));                       \
            __m256 late = _mm256_loadu_ps(x - (t) - 6);                    \
            early1 = _mm256_fmadd_ps(c[(t)], early, early1);               \
            early2 = _mm256_fmadd_ps(c[12 + (t)], early, early2);          \
            early3 = _mm256_fmadd_ps(c[24 + (t)], early, early3);          \
            late1 = _mm256_fmadd_ps(c[(t) + 6], late, late1);              \
            late2 = _mm256_fmadd_ps(c[12 + (t) + 6], late, late2);         \
            late3 = _mm256_fmadd_ps(c[24 + (t) + 6], late, late3);         \
        }
        WAVELENGTH_TAP(0) WAVELENGTH_TAP(1) WAVELENGTH_TAP(2)
        WAVELENGTH_TAP(3) WAVELENGTH_TAP(4) WAVELENGTH_TAP(5)
#undef WAVELENGTH_TAP
        largest = _mm256_max_ps(largest, _mm256_and_ps(_mm256_loadu_ps(x), magnitude));
        largest = _mm256_max_ps(largest, _mm256_and_ps(_mm256_add_ps(early1, late1), magnitude));
        largest = _mm256_max_ps(largest, _mm256_and_ps(_mm256_add_ps(early2, late2), magnitude));
        largest = _mm256_max_ps(largest, _mm256_and_ps(_mm256_add_ps(early3, late3), magnitude));
    }
    float lanes[8];
    _mm256_storeu_ps(lanes, largest);
    float result = 0;
    for (int lane = 0; lane < 8; lane++) {
        if (lanes[lane] > result) result = lanes[lane];
    }
    return result;
}
#endif

// `hasAVX2` comes from the caller, which asks the processor once.
static inline float wavelength_true_peak(
    const float *samples, size_t count, const float *coefficients, int phases, int taps, int hasAVX2) {
#if defined(__x86_64__)
    if (hasAVX2 && phases == 3 && taps == 12) return wavelength_true_peak_avx2(samples, count, coefficients);
#endif
    return wavelength_true_peak_portable(samples, count, coefficients, phases, taps);
}

#if defined(__x86_64__)
#include <cpuid.h>
// AVX2 and FMA, with the operating system saving the wide registers.
static inline int wavelength_has_avx2(void) {
    unsigned int a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    int fma = (c >> 12) & 1, osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
    if (!(fma && osxsave && avx)) return 0;
    unsigned int low, high;
    __asm__("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
    if ((low & 6) != 6) return 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return (b >> 5) & 1;
}
#else
static inline int wavelength_has_avx2(void) { return 0; }
#endif
