#ifndef CMALLOCCOUNTER_H
#define CMALLOCCOUNTER_H

#include <stdint.h>

/// Counts of heap operations made by this process since it started (all threads).
typedef struct {
    uint64_t allocations; ///< malloc, calloc, realloc(NULL, n), posix_memalign, aligned_alloc, memalign calls
    uint64_t reallocations; ///< realloc calls on an existing block
    uint64_t frees; ///< free calls on a non-NULL pointer
} bench_malloc_counts;

/// The counters now. Relaxed atomics: read them from a quiet process for exact deltas.
bench_malloc_counts bench_malloc_counts_now(void);

#endif
