// libqrencode from Debian's libqrencode-dev.
#include <qrencode.h>
