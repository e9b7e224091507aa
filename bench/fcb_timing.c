/* fcb_timing.c - running the items: the timed loops, one per signature and case
 * kind (plain, readback, chain; the prog group's and the wide chain callers are in
 * fcb_prog.c and fcb_chain.c), warming up and calibrating a sample. */
#define _GNU_SOURCE
#include <stdint.h>
#include <time.h>
#include "fcb.h"
#include "fcb_internal.h"

typedef void *(*copy_fn)(void *, const void *, size_t);
typedef void *(*set_fn)(void *, int, size_t);
typedef size_t (*copy_user_fn)(void *, const void *, size_t);
typedef size_t (*clear_user_fn)(void *, size_t);

double fcb_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* ---- timing ----------------------------------------------------------------------------- */

volatile unsigned fcb_sink; /* keeps the mixread loads */

/* The loops: one per signature; the function pointer comes from the impl table, so
 * no call can be inlined or specialised for a constant size. */
double fcb_run(struct fcb_state *st, struct fcb_item *it, uint64_t iters)
{
    double t0 = fcb_now_ns();
    fcb_exec(st, it, iters);
    return fcb_now_ns() - t0;
}

/* One timed loop: CALL on the next op each iteration, wrapping at the end of the
 * sequence.  FCB_READBACK_LOOP's CALL writes n bytes at p, and the loop then reads
 * the last of them (mixread: a consumer of the result), into fcb_sink. */
#define FCB_LOOP(CALL)                                                                 \
    for (uint64_t k = 0; k < iters; k++) {                                           \
        CALL;                                                                        \
        if (++j == nops)                                                             \
            j = 0;                                                                   \
    }
#define FCB_READBACK_LOOP(CALL)                                                        \
    do {                                                                             \
        unsigned acc = 0;                                                            \
        FCB_LOOP(unsigned char *p = d + ops[j].doff; size_t n = ops[j].n; CALL;      \
                 acc += p[n ? n - 1 : 0])                                            \
        fcb_sink = acc;                                                              \
    } while (0)

/* The chain group's caller side: one plain store or load of w = 1, 2, 4 or 8
 * bytes (a constant-size memcpy: one mov). */
static size_t chain_width(size_t n)
{
    return n >= 8 ? 8 : n >= 4 ? 4 : n >= 2 ? 2 : 1;
}
static inline void chain_put(unsigned char *p, uint64_t v, size_t w)
{
    uint8_t b1 = (uint8_t)v;
    uint16_t b2 = (uint16_t)v;
    uint32_t b4 = (uint32_t)v;
    switch (w) {
    case 1: __builtin_memcpy(p, &b1, 1); break;
    case 2: __builtin_memcpy(p, &b2, 2); break;
    case 4: __builtin_memcpy(p, &b4, 4); break;
    default: __builtin_memcpy(p, &v, 8); break;
    }
}
static inline uint64_t chain_get(const unsigned char *p, size_t w)
{
    uint8_t b1;
    uint16_t b2;
    uint32_t b4;
    uint64_t b8;
    switch (w) {
    case 1: __builtin_memcpy(&b1, p, 1); return b1;
    case 2: __builtin_memcpy(&b2, p, 2); return b2;
    case 4: __builtin_memcpy(&b4, p, 4); return b4;
    default: __builtin_memcpy(&b8, p, 8); return b8;
    }
}
/* The next value: what the call left at dst, plus one (so that every call's data
 * is new, and the chain cannot be broken by a value the core predicts). */
#define FCB_CHAIN_LOOP(PUT, CALL)                                                      \
    do {                                                                             \
        unsigned char *p = d + ops[0].doff, *q = s + ops[0].soff;                   \
        size_t n = ops[0].n, w = chain_width(n);                                     \
        uint64_t v = fcb_sink;                                                       \
        for (uint64_t k = 0; k < iters; k++) {                                       \
            PUT;                                                                     \
            CALL;                                                                    \
            v = chain_get(p, w) + 1;                                                 \
        }                                                                            \
        fcb_sink = (unsigned)v;                                                      \
    } while (0)

void fcb_exec(struct fcb_state *st, struct fcb_item *it, uint64_t iters)
{
    struct fcb_case *c = &st->cases[it->c];
    const struct fcb_impl *im = &st->impls[it->i];
    const struct fcb_op *ops = c->ops;
    size_t j = c->cursor, nops = c->nops;
    unsigned char *s = c->sbase, *d = c->dbase;
    switch (im->kind) {
    case FCB_K_COPY: {
        copy_fn fn = (copy_fn)im->fn;
        if (c->prog)
            fcb_prog_exec(c, fn, iters), j = c->cursor;
        else if (c->chain && c->chain_w > 8)
            fcb_sink = fcb_chain_copy_wide(fn, d + ops[0].doff, s + ops[0].soff, ops[0].n,
                                           (size_t)c->chain_w, iters, fcb_sink);
        else if (c->chain)
            FCB_CHAIN_LOOP(chain_put(q, v, w), fn(p, q, n));
        else if (c->readback)
            FCB_READBACK_LOOP(fn(p, s + ops[j].soff, n));
        else
            FCB_LOOP(fn(d + ops[j].doff, s + ops[j].soff, ops[j].n))
        break;
    }
    case FCB_K_SET: {
        set_fn fn = (set_fn)im->fn;
        if (c->chain && c->chain_w > 8)
            fcb_sink = fcb_chain_set_wide(fn, d + ops[0].doff, ops[0].n, (size_t)c->chain_w,
                                          iters, fcb_sink);
        else if (c->chain)
            FCB_CHAIN_LOOP((void)q, fn(p, (int)(v & 0xff), n));
        else if (c->readback)
            FCB_READBACK_LOOP(fn(p, 0, n));
        else
            FCB_LOOP(fn(d + ops[j].doff, 0, ops[j].n))
        break;
    }
    case FCB_K_COPY_USER: {
        copy_user_fn fn = (copy_user_fn)im->fn;
        FCB_LOOP(fn(d + ops[j].doff, s + ops[j].soff, ops[j].n))
        break;
    }
    case FCB_K_CLEAR_USER: {
        clear_user_fn fn = (clear_user_fn)im->fn;
        FCB_LOOP(fn(d + ops[j].doff, ops[j].n))
        break;
    }
    }
    c->cursor = j;
}

void fcb_warm(struct fcb_state *st, struct fcb_item *it)
{
    struct fcb_case *c = &st->cases[it->c];
    if (c->cold || c->size > st->cache.l3 / 2)
        return;
    fcb_exec(st, it, c->mix ? 4096 : c->nops > 1 ? c->nops : c->size > 64 * KiB ? 2 : 16);
}

void fcb_calibrate(struct fcb_state *st, struct fcb_item *it, double target_ns)
{
    uint64_t n = 1;
    struct fcb_case *c = &st->cases[it->c];
    if (c->mix) {
        /* Whole passes over the sequence, as many as fill a sample (a short,
         * learnable sequence is replayed round and round). */
        it->iters = c->nops;
        c->cursor = 0;
        fcb_warm(st, it);
        c->cursor = 0;
        double t = fcb_run(st, it, c->nops);
        uint64_t k = t > 0 && t < target_ns ? (uint64_t)(target_ns / t) : 1;
        it->iters = c->nops * (k ? k : 1);
        c->cursor = 0;
        return;
    }
    fcb_warm(st, it);
    for (;;) {
        double t = fcb_run(st, it, n);
        if (t >= target_ns / 8 || n >= ((uint64_t)1 << 40)) {
            double want = t > 0 ? n * target_ns / t : n * 8.0;
            n = want < 1 ? 1 : (uint64_t)want;
            break;
        }
        n *= 8;
    }
    it->iters = n;
}
