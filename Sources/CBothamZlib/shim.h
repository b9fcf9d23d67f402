// zlib header used by BothamNetworkingNative (system zlib1g-dev).
#ifndef C_BOTHAM_ZLIB_SHIM_H
#define C_BOTHAM_ZLIB_SHIM_H

#include <zlib.h>

#endif
