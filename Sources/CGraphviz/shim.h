#ifndef COORDLENS_CGRAPHVIZ_SHIM_H
#define COORDLENS_CGRAPHVIZ_SHIM_H

#include <stddef.h>
#include <gvc.h>
#include <cgraph.h>

// gvRenderData takes `unsigned int *` up to Graphviz 12 and `size_t *` from 13 on; older headers carry no version
// macro, so the parameter type itself picks the call.
#define COORDLENS_RENDER_DATA_USES_SIZE_T \
    _Generic((gvRenderData), int (*)(GVC_t *, graph_t *, const char *, char **, unsigned int *): 0, default: 1)

static inline int coordlens_render_data(GVC_t *gvc, graph_t *g, const char *format, char **result, size_t *length) {
    if (COORDLENS_RENDER_DATA_USES_SIZE_T) {
        return ((int (*)(GVC_t *, graph_t *, const char *, char **, size_t *))gvRenderData)(gvc, g, format, result, length);
    }
    unsigned int narrow = 0;
    int status = ((int (*)(GVC_t *, graph_t *, const char *, char **, unsigned int *))gvRenderData)(gvc, g, format, result, &narrow);
    *length = narrow;
    return status;
}

// Exported by libgvc (declared only in its internal gvcproc.h): the directory its plugins load from, found from
// where libgvc itself was loaded.
extern char *gvconfig_libdir(GVC_t *gvc);

#endif
