#ifndef TILTMAZE_CIIO_SHIM_H
#define TILTMAZE_CIIO_SHIM_H
#include <iio.h>
#endif
