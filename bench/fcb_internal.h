/* fcb_internal.h - what the files behind fcb_setup share among themselves (the
 * front ends see fcb.h only): fcb_options.c, fcb_impls.c, fcb_cases.c, fcb_mix.c,
 * fcb_setup.c and fcb_timing.c. */
#ifndef FCB_INTERNAL_H
#define FCB_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "fcb.h"

#define KiB ((size_t)1024)
#define MiB (1024 * KiB)

/* ---- options (fcb_options.c) ----------------------------------------------------- */
/* Is `name` in the comma-separated list (NULL: every name)?  glob: fnmatch entries. */
int fcb_in_list(const char *list, const char *name, int glob);
/* A size in the library's grammar (K, M, G suffixes): 0, or -1. */
int fcb_parse_size(const char *s, size_t *out);
/* 0 when every --case pattern matched a case built, else -1 after one line. */
int fcb_check_cases(const struct fcb_state *st);

/* ---- implementations (fcb_impls.c) ----------------------------------------------- */
/* --with LIB[=NAME] split into the path and the impl name; -1 for a bad path. */
int fcb_with_split(const char *arg, char path[256], char name[24]);
/* Fills st->impls; -1 after one line when a --with library cannot be used. */
int fcb_build_impls(struct fcb_state *st);

/* ---- cases (fcb_cases.c) --------------------------------------------------------- */
struct fcb_builder {
    struct fcb_state *st;
    int cap;
    unsigned char *S, *D;       /* arenas */
    size_t arena;               /* bytes in each */
    size_t cold_region;
    size_t max_size;
    uint64_t rng;
    unsigned char *fault_page;  /* two pages, the second PROT_NONE */
    unsigned char *end_pages;   /* four pages: src, PROT_NONE, dst, PROT_NONE */
    int mix_for_mixread;        /* build the mix cases for mixread even if "mix" is off */
};

/* splitmix64: the same draws on every platform. */
uint64_t fcb_rng_next(uint64_t *s);
uint64_t fcb_rng_below(uint64_t *s, uint64_t n);
int fcb_group_on(const struct fcb_builder *b, const char *g);
/* Adds a case (unless filtered out) with room for nops operations; NULL if skipped. */
struct fcb_case *fcb_new_case(struct fcb_builder *b, int f, const char *group, size_t size,
                              size_t nops, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
void fcb_ops_free(struct fcb_case *c);
/* Does impl im time case c? */
int fcb_impl_fits(const struct fcb_case *c, const struct fcb_impl *im);
/* The groups, in the order fcb_setup builds them (fcb_cases_mix and
 * fcb_cases_mixread: fcb_mix.c). */
void fcb_cases_tune(struct fcb_builder *b);
void fcb_cases_sizes(struct fcb_builder *b);
void fcb_cases_pageend(struct fcb_builder *b);
void fcb_cases_dist(struct fcb_builder *b);
void fcb_cases_cold(struct fcb_builder *b);
void fcb_cases_ws(struct fcb_builder *b);
void fcb_cases_overlap(struct fcb_builder *b);
void fcb_cases_mix(struct fcb_builder *b);
void fcb_cases_mixread(struct fcb_builder *b);
void fcb_cases_chain(struct fcb_builder *b);
void fcb_cases_prog(struct fcb_builder *b);
void fcb_cases_user(struct fcb_builder *b);

/* ---- size distributions (fcb_mix.c) ---------------------------------------------- */
/* A size distribution: entry k says sizes lo..hi (evenly) with weight w.
 * bench/distributions' files have one line, the weight of each size 0, 1, 2, ...;
 * fastcopy-trace's add lines "LO-HI,P" for the sizes above 4096 and comment lines
 * ("# function: memcpy" names the function). */
struct fcb_mixdist_entry {
    uint64_t lo, hi;
    double w;
};
struct fcb_mixdist {
    struct fcb_mixdist_entry *e;
    size_t n;
    int func;           /* -1 when the file does not say */
};
/* Reads and parses --dist FILE: 0, or -1 after one line naming it. */
int fcb_load_dist(const char *path, struct fcb_mixdist *d);
/* --dist FILE's case name (at most cap - 1 characters). */
void fcb_dist_file_name(const char *path, char *name, size_t cap);

#endif
