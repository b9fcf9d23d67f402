// Counts heap allocations by interposing the allocator entry points in the benchmark executable.
//
// The executable defines malloc, calloc, realloc, free, posix_memalign, aligned_alloc and memalign. Because shared
// libraries (libswiftCore, Foundation, libc itself for its exported entry points) reference them, the static linker
// exports these definitions and the dynamic linker binds every caller to them ahead of glibc's. Each definition bumps
// an atomic counter and forwards to glibc's real implementation through its exported `__libc_*` aliases; using those
// instead of `dlsym(RTLD_NEXT, ...)` avoids the bootstrap problem (dlsym itself calls calloc) and costs nothing.
// glibc only: on other C libraries the hook is simply not built and the counts stay 0. Build with
// `-Xcc -DBENCH_NO_MALLOC_HOOK` to leave it out (for valgrind, which brings its own allocator hooks).
#include "CMallocCounter.h"

#if defined(__linux__) && defined(__GLIBC__) && !defined(BENCH_NO_MALLOC_HOOK)
#include <errno.h>
#include <stddef.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
extern void *__libc_memalign(size_t, size_t);

static uint64_t allocation_count;
static uint64_t reallocation_count;
static uint64_t free_count;

static inline void bump(uint64_t *counter) { __atomic_fetch_add(counter, 1, __ATOMIC_RELAXED); }

void *malloc(size_t size) {
    bump(&allocation_count);
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    bump(&allocation_count);
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    bump(pointer == NULL ? &allocation_count : &reallocation_count);
    return __libc_realloc(pointer, size);
}

void free(void *pointer) {
    if (pointer != NULL) bump(&free_count);
    __libc_free(pointer);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    bump(&allocation_count);
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL && size != 0) return ENOMEM;
    *result = pointer;
    return 0;
}

void *aligned_alloc(size_t alignment, size_t size) {
    bump(&allocation_count);
    return __libc_memalign(alignment, size);
}

void *memalign(size_t alignment, size_t size) {
    bump(&allocation_count);
    return __libc_memalign(alignment, size);
}

bench_malloc_counts bench_malloc_counts_now(void) {
    bench_malloc_counts counts = {
        __atomic_load_n(&allocation_count, __ATOMIC_RELAXED),
        __atomic_load_n(&reallocation_count, __ATOMIC_RELAXED),
        __atomic_load_n(&free_count, __ATOMIC_RELAXED),
    };
    return counts;
}

#else

bench_malloc_counts bench_malloc_counts_now(void) {
    bench_malloc_counts counts = {0, 0, 0};
    return counts;
}

#endif
