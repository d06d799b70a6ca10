#ifndef COORDLENS_CZLIB_SHIM_H
#define COORDLENS_CZLIB_SHIM_H

// The system's zlib (Debian's zlib1g-dev, the SDK's on Apple platforms): the inspector page's large JSON and SVG answers
// go out gzip-compressed to browsers that accept it.
#include <zlib.h>

// deflateInit2 is a macro over deflateInit2_, which Swift cannot import.
static inline int coordlens_deflate_init_gzip(z_streamp stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

#endif
