/* fcb_prog.c - the "prog" group: what programs that preload a memcpy do around
 * their calls, where the caller's own work (fetching the next source, reading what
 * was copied) is part of what a call costs them.  Each case is a list of ops that
 * fcb_prog_layout lays out and fcb_prog_exec replays, the caller's own loads and
 * stores timed with the call: the time per call is the whole step.  S and D are
 * fcbench's source and destination arenas (page-aligned, 4 KiB pages).
 *
 *   sqlite       sqlite3 reading BLOBs from its page cache (98% of its calls are
 *                these 4092-byte copies): pages of 4096 bytes one every 4384 bytes
 *                from S (pcache1 mallocs each page with its ~280 bytes of headers,
 *                one after the other), in address order over a region of 4x the
 *                L3 (2x with --quick), round and round, so the source comes from
 *                memory.  Step k copies 4092 bytes from page k + 4 (past its 4-byte
 *                header, the next overflow page's number) to the BLOB being
 *                assembled, a 1 MiB buffer (copy k lands at D + 16 + (k mod 256) x
 *                4092), then loads page k+1's 4-byte header; the next copy's source
 *                address depends on that load, as sqlite's pager lookup does.
 *   sqlite-mmap  the same with the pages one every 4096 bytes (page-aligned: a
 *                memory-mapped database, or one page cache buffer per page).
 *   lz4/N        lz4 -d writing into a pipe (copies of 64-440 KiB): N bytes from the
 *                next N of a 4 MiB region at S (lz4's default block: step k reads
 *                S + (k mod (4 MiB / N)) x N, written a while ago, in the L3) to one
 *                output buffer at D + 2064, which the next stage then reads in full
 *                (as write(2) into a pipe does) with the widest vector loads.
 *   fresh/N      a record the caller has just written: it writes N bytes at
 *                S + 64 KiB (the widest vector stores), copies them to
 *                D + 64 KiB + 2064 and reads the copy in full (the widest loads).
 * dst - src is 2064 modulo 4096 in lz4 and fresh (no 4K aliasing: the dist group
 * measures distances); in sqlite it moves with every page, as in the program.
 * The writes and reads are fcb_limits.c's kernels, the same for every impl. */
#include <stddef.h>
#include <stdint.h>
#include "fcb.h"

#define KiB ((size_t)1024)
#define MiB (1024 * KiB)

#define SQLITE_DATA 4092 /* a 4096-byte page less its header */
#define SQLITE_BLOB_PAGES 256
#define LZ4_REGION (4 * MiB)
#define NEUTRAL 2064 /* dst offset: 2048 + 16 modulo 4096 from src */

const struct fcb_prog_def fcb_prog_defs[] = {
    {FCB_PROG_SQLITE, "sqlite", SQLITE_DATA, 4384, 1},
    {FCB_PROG_SQLITE, "sqlite-mmap", SQLITE_DATA, 4096, 0},
    {FCB_PROG_LZ4, "lz4/65536", 65536, 0, 1},
    {FCB_PROG_LZ4, "lz4/131072", 131072, 0, 0},
    {FCB_PROG_LZ4, "lz4/262144", 262144, 0, 0},
    {FCB_PROG_LZ4, "lz4/450560", 450560, 0, 1},
    {FCB_PROG_FRESH, "fresh/4096", 4096, 0, 1},
    {FCB_PROG_FRESH, "fresh/16384", 16384, 0, 0},
    {FCB_PROG_FRESH, "fresh/65536", 65536, 0, 1},
};
const size_t fcb_nprog_defs = sizeof fcb_prog_defs / sizeof fcb_prog_defs[0];

size_t fcb_prog_arena(size_t region)
{
    /* sqlite's pages (its BLOB: 1 MiB of D), lz4's block (its buffer: 442 KiB of
     * D), fresh's 64 KiB + 2064 + 64 KiB */
    return (region > LZ4_REGION ? region : LZ4_REGION) + 8 * KiB;
}

size_t fcb_prog_nops(const struct fcb_prog_def *p, size_t region)
{
    switch (p->prog) {
    case FCB_PROG_SQLITE: return region / p->stride;
    case FCB_PROG_LZ4: return p->n <= LZ4_REGION ? LZ4_REGION / p->n : 0;
    default: return 1;
    }
}

void fcb_prog_layout(const struct fcb_prog_def *p, struct fcb_op *ops, size_t nops)
{
    for (size_t k = 0; k < nops; k++) {
        struct fcb_op *o = &ops[k];
        o->n = (uint32_t)p->n;
        switch (p->prog) {
        case FCB_PROG_SQLITE:
            o->soff = (uint32_t)(k * p->stride + 4);
            o->doff = (uint32_t)(16 + (k % SQLITE_BLOB_PAGES) * SQLITE_DATA);
            break;
        case FCB_PROG_LZ4:
            o->soff = (uint32_t)(k * p->n);
            o->doff = NEUTRAL;
            break;
        default:
            o->soff = (uint32_t)(64 * KiB);
            o->doff = (uint32_t)(64 * KiB + NEUTRAL);
            break;
        }
    }
}

/* What the next source address's dependence on the header goes through: 0, but
 * neither the compiler nor the core knows it. */
volatile uint32_t fcb_prog_zero;
volatile uint64_t fcb_prog_sink;

void fcb_prog_exec(struct fcb_case *c, void *(*fn)(void *, const void *, size_t),
                   uint64_t iters)
{
    const struct fcb_op *ops = c->ops;
    size_t j = c->cursor, nops = c->nops;
    unsigned char *s = c->sbase, *d = c->dbase;
    switch (c->prog) {
    case FCB_PROG_SQLITE: {
        uint32_t zero = fcb_prog_zero, h = 0;
        uint64_t acc = 0;
        for (uint64_t k = 0; k < iters; k++) {
            fn(d + ops[j].doff, s + ops[j].soff + (h & zero), ops[j].n);
            if (++j == nops)
                j = 0;
            __builtin_memcpy(&h, s + ops[j].soff - 4, 4); /* the next page's header */
            acc += h;
        }
        fcb_prog_sink = acc;
        break;
    }
    case FCB_PROG_LZ4:
        for (uint64_t k = 0; k < iters; k++) {
            unsigned char *p = d + ops[j].doff;
            fn(p, s + ops[j].soff, ops[j].n);
            fcb_limit_read_set(p, 0, ops[j].n);
            if (++j == nops)
                j = 0;
        }
        break;
    case FCB_PROG_FRESH:
        for (uint64_t k = 0; k < iters; k++) {
            unsigned char *p = d + ops[j].doff, *q = s + ops[j].soff;
            fcb_limit_write_set(q, 0, ops[j].n);
            fn(p, q, ops[j].n);
            fcb_limit_read_set(p, 0, ops[j].n);
        }
        break;
    }
    c->cursor = j;
}
