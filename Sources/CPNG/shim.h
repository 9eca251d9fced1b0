// libpng 1.6 from Debian's libpng-dev. Wavelength uses only its simplified
// write API (png_image_write_to_memory), which catches libpng's errors with
// its own setjmp inside libpng and reports them in png_image.message, so no
// longjmp ever crosses a Swift frame.
#include <png.h>
