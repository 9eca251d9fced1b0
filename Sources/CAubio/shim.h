// aubio from Debian's libaubio-dev: tempo and onset detection for the
// robot DJ's audio features. Its sources decode through FFmpeg's libraries.
// Unstable: the detectors' parts (peak picker, beat tracker, the vector
// helpers) that `RhythmDetectors` runs over one shared spectrum.
#define AUBIO_UNSTABLE 1
#include <aubio/aubio.h>
#include <aubio/utils/log.h>
