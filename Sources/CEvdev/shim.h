#ifndef TILTMAZE_CEVDEV_SHIM_H
#define TILTMAZE_CEVDEV_SHIM_H
#include <libevdev/libevdev.h>
#include <linux/input.h>
#endif
