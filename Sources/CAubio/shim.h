// aubio from Debian's libaubio-dev: tempo and onset detection for the
// robot DJ's audio features. Its sources decode through FFmpeg's libraries.
#include <aubio/aubio.h>
#include <aubio/utils/log.h>
