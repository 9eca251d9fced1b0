// libebur128 from Debian's libebur128-dev: EBU R128 loudness (integrated,
// range, true peak) of the samples the analysis decodes once per file.
#include <ebur128.h>
