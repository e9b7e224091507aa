/* fcb_tune.h - `fcbench --tune`: measure this machine's cut-overs, choose, write a
 * tuning file (docs/tuning.md).
 *
 * The choosing step is a pure function of the measurements (fcb_tune_choose), so
 * that it can be tested with made-up timing tables (bench/test_tune_choose.c). */
#ifndef FCB_TUNE_H
#define FCB_TUNE_H

#include <stddef.h>

enum fcb_objective { FCB_OBJ_BALANCED, FCB_OBJ_HOT, FCB_OBJ_COLD };

/* One measured point of a cut-over between path A (below it) and path B (at and
 * above it): the size, and per regime (hot: the same bytes every call; cold: fresh
 * lines every call) the mean over rounds of log(time B / time A) and the half
 * width of its 95% interval.  A regime not measured has ci < 0. */
struct fcb_tune_point {
    size_t size;
    double hot, hot_ci;
    double cold, cold_ci;
    int func; /* whose cases (FC_MEMCPY, FC_MEMMOVE, FC_MEMSET): a cut-over may span two */
};

/* The shapes a cut-over can take, as the kernels read it: path B on
 *   FCB_SHAPE_FROM   [b0, inf)                 (one threshold)
 *   FCB_SHAPE_WINDOW [b0, b1)                  (threshold and stop)
 *   FCB_SHAPE_TWO    [b0, b1) and [b2, inf)    (start, stop and high_start)
 * A boundary may also be FCB_TUNE_NEVER (above every size). */
enum fcb_shape { FCB_SHAPE_FROM = 1, FCB_SHAPE_WINDOW = 2, FCB_SHAPE_TWO = 3 };
#define FCB_TUNE_NEVER ((size_t)1 << 40)
/* 1 when size s takes path B under boundaries b of that shape. */
int fcb_tune_path_b(int shape, const size_t *b, size_t s);

/* The verdict at one point under an objective, where the default takes path B
 * (def_b) or A: -1 = A, 1 = B, 0 = no difference proven (the default's path stands
 * there).  *loss_a and *loss_b (when not NULL) are what taking A or B costs there,
 * in log time (0 for the chosen one and for ties).  A difference counts only when
 * the 95% interval of a regime excludes zero and it is above 2%.
 *   hot, cold: the faster path in that regime.
 *   balanced (the default): per size, the path whose worse ratio, hot or cold,
 *     against the other is smaller (the rule the x86 policy's windows were chosen
 *     by) -- but the default's path is left only for one shown to be nowhere more
 *     than 5% slower (the top of its 95% interval, in every regime: no cell of a
 *     benchmark run gets slower beyond noise), and a path not shown so costs so
 *     much that no gain elsewhere buys it. */
int fcb_tune_verdict(const struct fcb_tune_point *p, int objective, int def_b, double *loss_a,
                     double *loss_b);

/* Chooses the boundaries (shape of them, nondecreasing) among the point sizes and
 * FCB_TUNE_NEVER that minimise the total loss over the points; among equal losses
 * the one nearest the default boundaries (def, shape of them).  Points must be in
 * increasing size.  Writes out[0..shape-1]; returns the total loss of the choice
 * minus that of the default (<= 0). */
double fcb_tune_choose(const struct fcb_tune_point *pts, int npts, int objective, int shape,
                       const size_t *def, size_t *out);

/* rep movsb's stop after the measurement, where the policy keeps rep movsb up to
 * the non-temporal threshold (policy_stop == policy_nt): it follows the measured
 * nt_start, except that a window left closed (threshold at or past the new
 * nt_start: rep movsb off, as on Zen 4 where all three are 24M) stays closed,
 * stop = threshold, for the loader refuses a stop below its threshold as an empty
 * window.  Otherwise the measured stop. */
size_t fcb_tune_movsb_stop(size_t policy_stop, size_t policy_nt, size_t threshold, size_t stop,
                           size_t nt);

/* `fcbench --tune`: 0, or an exit status after one line on stderr. */
struct fcb_state;
struct fcb_tune_opts {
    const char *out;    /* the tuning file to write */
    int objective;
    int quick;
    int nproc;          /* the measurement in this many fresh processes (1: here) */
    const char *child_out; /* set in such a child: where its samples go */
    int argc;           /* fcbench's arguments, for the children */
    char **argv;
};
int fcb_tune_main(struct fcb_state *st, const struct fcb_tune_opts *o);
int fcb_tune_default_processes(void);

/* fcbench.c's --processes children, which --tune uses too. */
char **fcb_child_argv(int argc, char **argv, const char *path, int csv_json);
int fcb_run_child(char **cargv, int p, int nproc);
int fcb_child_file(char *path, size_t cap);

#endif
