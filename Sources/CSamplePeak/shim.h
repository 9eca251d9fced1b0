// The largest magnitude among `count` float samples: the true-peak meter's
// scan over the oversampled audio, four times the file's samples.
#include <stddef.h>

static inline float wavelength_largest_magnitude(const float *samples, size_t count) {
    float largest = 0;
    for (size_t index = 0; index < count; index++) {
        float magnitude = samples[index] < 0 ? -samples[index] : samples[index];
        if (magnitude > largest) largest = magnitude;
    }
    return largest;
}
