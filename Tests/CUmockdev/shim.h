#ifndef TILTMAZE_CUMOCKDEV_SHIM_H
#define TILTMAZE_CUMOCKDEV_SHIM_H
#include <umockdev.h>
#endif
