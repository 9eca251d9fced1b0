#include <chromaprint.h>
