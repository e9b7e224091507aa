/* guard.h - buffers that end (or start) flush against PROT_NONE pages, so any read
 * or write past the buffer faults.  Shared by the test programs. */
#ifndef FC_TEST_GUARD_H
#define FC_TEST_GUARD_H
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

struct guarded {
    unsigned char *map;   /* the whole mapping: guard, body, guard */
    size_t map_len;
    unsigned char *body;  /* accessible pages */
    size_t body_len;
};

/* len accessible bytes (rounded up to pages) between two PROT_NONE pages. */
static inline int guarded_alloc(struct guarded *g, size_t len)
{
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    g->map = g->body = NULL;
    g->body_len = (len + pg - 1) / pg * pg;
    if (g->body_len == 0)
        g->body_len = pg;
    g->map_len = g->body_len + 2 * pg;
    g->map = mmap(NULL, g->map_len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (g->map == MAP_FAILED) {
        g->map = NULL;
        return -1;
    }
    g->body = g->map + pg;
    return mprotect(g->body, g->body_len, PROT_READ | PROT_WRITE);
}

static inline void guarded_free(struct guarded *g)
{
    munmap(g->map, g->map_len);
}

/* A pointer such that [p, p+n) ends exactly at the upper guard page. */
static inline unsigned char *guarded_tail(struct guarded *g, size_t n)
{
    return g->body + g->body_len - n;
}
#endif
