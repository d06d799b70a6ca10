#ifndef COORDLENS_CGRAPHVIZ_SHIM_H
#define COORDLENS_CGRAPHVIZ_SHIM_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <gvc.h>
#include <cgraph.h>

// Renders into memory through a stdio stream. gvRenderData grows its buffer a page at a time (Graphviz 2.42), so each
// write past a page boundary reallocates, and the kernel moves the pages each time: for the 150 MB SVG of 100,000
// coordinators, 2.4 s of system time against 1.7 s this way. open_memstream grows geometrically. The caller frees `*result` with free().
static inline int coordlens_render_memory(GVC_t *gvc, graph_t *g, const char *format, char **result, size_t *length) {
    *result = NULL;
    *length = 0;
    FILE *stream = open_memstream(result, length);
    if (stream == NULL) return -1;
    int status = gvRender(gvc, g, format, stream);
    if (fclose(stream) != 0) status = -1;
    return status;
}

// Exported by libgvc (declared only in its internal gvcproc.h): the directory its plugins load from, found from
// where libgvc itself was loaded.
extern char *gvconfig_libdir(GVC_t *gvc);

#endif
