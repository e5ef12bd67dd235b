#ifndef TILTMAZE_CPNG_SHIM_H
#define TILTMAZE_CPNG_SHIM_H
#include <png.h>
#endif
