#ifndef RESTORATION_TOOL_CHEAPTUNING_SHIM_H
#define RESTORATION_TOOL_CHEAPTUNING_SHIM_H
#include <stdlib.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

/// Asks the C allocator to take `bytes` of address space beyond what an allocation needs
/// whenever it goes to the system (glibc's M_TOP_PAD): each time the main heap grows, and when
/// a thread's heap is made. Otherwise worker threads that allocate a lot grow their heaps in
/// thousands of small steps, each an mprotect call that holds the process's address-space
/// lock, which the other threads' page faults wait for. Pages never written cost nothing.
/// Elsewhere (musl, Darwin) it does nothing.
static inline void heap_tuning_pad_growth(int bytes) {
#if defined(__GLIBC__)
    mallopt(M_TOP_PAD, bytes);
#else
    (void)bytes;
#endif
}
#endif
