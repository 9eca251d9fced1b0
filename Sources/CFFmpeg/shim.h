#include <errno.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/dict.h>
#include <libavutil/opt.h>
#include <libavutil/channel_layout.h>
#include <libswresample/swresample.h>

// AVERROR(EAGAIN) and AVERROR_EOF are function-like macros, which Swift
// cannot import: the decoder's loop needs both.
static inline int wavelength_averror_again(void) { return AVERROR(EAGAIN); }
static inline int wavelength_averror_eof(void) { return AVERROR_EOF; }
