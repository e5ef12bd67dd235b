/* Headers only (include/CLinuxDisplay.h); SwiftPM wants a source file in a C target. */
#include "CLinuxDisplay.h"
