#ifndef RESTORATION_TOOL_CPLIST_SHIM_H
#define RESTORATION_TOOL_CPLIST_SHIM_H
#include <stdlib.h>
#include <plist/plist.h>

/// libplist 2.2.0 hands out iterators and dictionary keys allocated with malloc and has no
/// function of its own to release them (plist_mem_free came in 2.3).
static inline void cplist_release(void *memory) {
    free(memory);
}
#endif
