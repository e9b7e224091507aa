/* test_tune_choose.c - the choosing step of `fcbench --tune` on made-up timing
 * tables: a clean crossover, two crossings, noise within the interval, a path that
 * never wins, a hot-versus-cold trade under each objective. */
#include <math.h>
#include <stdio.h>
#include "fcb_tune.h"

static int fails;

#define EXPECT(cond, ...)                                                                 \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                   \
            printf(__VA_ARGS__);                                                          \
            printf("\n");                                                                 \
            fails++;                                                                      \
        }                                                                                 \
    } while (0)

static const size_t grid[] = {512, 1024, 2048, 4096, 8192, 16384, 32768, 65536};
#define NG (int)(sizeof grid / sizeof grid[0])

/* B's time / A's time at size s, hot and cold, as a table built by f. */
static void table(struct fcb_tune_point *p, double (*hot)(size_t), double (*cold)(size_t),
                  double ci)
{
    for (int i = 0; i < NG; i++) {
        p[i].size = grid[i];
        p[i].hot = log(hot(grid[i]));
        p[i].hot_ci = ci;
        p[i].cold = cold ? log(cold(grid[i])) : 0;
        p[i].cold_ci = cold ? ci : -1;
    }
}

static double cross4k(size_t s) { return s < 4096 ? 1.25 : 0.8; }
static double window(size_t s) { return s >= 2048 && s < 16384 ? 0.7 : 1.3; }
static double noise(size_t s) { return s % 2048 ? 1.02 : 0.98; }
static double never(size_t s) { (void)s; return 1.2; }
static double always(size_t s) { (void)s; return 0.85; }
static double hot_loses(size_t s) { (void)s; return 1.6; }
static double cold_wins(size_t s) { (void)s; return 0.7; }
static double two(size_t s) { return s < 1024 || s >= 32768 ? 0.8 : 1.2; }

int main(void)
{
    struct fcb_tune_point p[NG];
    size_t out[3], def[3];

    /* a clean crossover at 4 KiB, default 16 KiB: moves to 4 KiB and gains */
    table(p, cross4k, cross4k, 0.02);
    def[0] = 16384;
    double gain = fcb_tune_choose(p, NG, FCB_OBJ_BALANCED, FCB_SHAPE_FROM, def, out);
    EXPECT(out[0] == 4096, "crossover: %zu", out[0]);
    EXPECT(gain < 0, "crossover: gain %g", gain);

    /* two crossings: a window [2K, 16K) when the shape allows one */
    table(p, window, window, 0.02);
    def[0] = 4096, def[1] = FCB_TUNE_NEVER;
    fcb_tune_choose(p, NG, FCB_OBJ_BALANCED, FCB_SHAPE_WINDOW, def, out);
    EXPECT(out[0] == 2048 && out[1] == 16384, "window: [%zu, %zu)", out[0], out[1]);
    /* ... and with a single threshold, the cheaper side: B from 2K costs 3 sizes
     * at 1.3x, never B costs 3 sizes at 0.7x: both lose; either is acceptable,
     * but not a threshold inside the window */
    def[0] = 4096;
    fcb_tune_choose(p, NG, FCB_OBJ_BALANCED, FCB_SHAPE_FROM, def, out);
    EXPECT(out[0] == 2048 || out[0] == FCB_TUNE_NEVER, "window, one threshold: %zu", out[0]);

    /* noise inside the 95% interval keeps the default */
    table(p, noise, noise, 0.05);
    def[0] = 8192;
    gain = fcb_tune_choose(p, NG, FCB_OBJ_BALANCED, FCB_SHAPE_FROM, def, out);
    EXPECT(out[0] == 8192 && gain == 0, "noise: %zu (gain %g)", out[0], gain);
    /* a proven but small difference (< 2%) keeps it too */
    for (int i = 0; i < NG; i++)
        p[i].hot = p[i].cold = i < 4 ? 0.015 : -0.015, p[i].hot_ci = p[i].cold_ci = 0.001;
    fcb_tune_choose(p, NG, FCB_OBJ_BALANCED, FCB_SHAPE_FROM, def, out);
    EXPECT(out[0] == 8192, "under 2%%: %zu", out[0]);

    /* a path that never wins: B is never taken; one that always wins: from the
     * smallest size measured */
    table(p, never, never, 0.02);
    def[0] = 4096;
    fcb_tune_choose(p, NG, FCB_OBJ_BALANCED, FCB_SHAPE_FROM, def, out);
    EXPECT(out[0] == FCB_TUNE_NEVER, "never: %zu", out[0]);
    table(p, always, always, 0.02);
    fcb_tune_choose(p, NG, FCB_OBJ_BALANCED, FCB_SHAPE_FROM, def, out);
    EXPECT(out[0] == 512, "always: %zu", out[0]);

    /* hot 1.6x slower, cold 1.43x faster (rep stosb on Zen 5): balanced takes A
     * where the default had B?  No: A is 1.43x slower cold, more than 5%: the default
     * stands, from either side.  cold takes B, hot A. */
    table(p, hot_loses, cold_wins, 0.02);
    def[0] = 4096;
    fcb_tune_choose(p, NG, FCB_OBJ_BALANCED, FCB_SHAPE_FROM, def, out);
    EXPECT(out[0] == 4096, "balanced trade, default 4K: %zu", out[0]);
    def[0] = FCB_TUNE_NEVER;
    fcb_tune_choose(p, NG, FCB_OBJ_BALANCED, FCB_SHAPE_FROM, def, out);
    EXPECT(out[0] == FCB_TUNE_NEVER, "balanced trade, default never: %zu", out[0]);
    def[0] = 4096;
    fcb_tune_choose(p, NG, FCB_OBJ_COLD, FCB_SHAPE_FROM, def, out);
    EXPECT(out[0] == 512, "cold objective: %zu", out[0]);
    fcb_tune_choose(p, NG, FCB_OBJ_HOT, FCB_SHAPE_FROM, def, out);
    EXPECT(out[0] == FCB_TUNE_NEVER, "hot objective: %zu", out[0]);
    /* a regime not measured does not vote */
    table(p, hot_loses, NULL, 0.02);
    EXPECT(fcb_tune_verdict(&p[0], FCB_OBJ_BALANCED, 1, NULL, NULL) == -1, "hot only");
    EXPECT(fcb_tune_verdict(&p[0], FCB_OBJ_COLD, 1, NULL, NULL) == 0, "cold objective, no cold");

    /* 1.43x faster hot, 3% slower cold but with an interval reaching 8%: not shown
     * to cost at most 5%, so the default stands */
    for (int i = 0; i < NG; i++)
        p[i].size = grid[i], p[i].hot = log(0.7), p[i].hot_ci = 0.02, p[i].cold = log(1.03),
        p[i].cold_ci = 0.05;
    def[0] = FCB_TUNE_NEVER;
    fcb_tune_choose(p, NG, FCB_OBJ_BALANCED, FCB_SHAPE_FROM, def, out);
    EXPECT(out[0] == FCB_TUNE_NEVER, "cost not shown under 5%%: %zu", out[0]);
    for (int i = 0; i < NG; i++)
        p[i].cold_ci = 0.01;
    fcb_tune_choose(p, NG, FCB_OBJ_BALANCED, FCB_SHAPE_FROM, def, out);
    EXPECT(out[0] == 512, "cost shown under 5%%: %zu", out[0]);

    /* one function gains, another loses more than 5% at the same size (a shared
     * threshold): the loss is not bought */
    {
        struct fcb_tune_point q[4] = {
            {1 << 20, log(0.6), 0.02, log(0.6), 0.02, 0}, /* memcpy: B far better */
            {1 << 20, log(1.3), 0.02, log(0.5), 0.02, 2}, /* memset: B 1.3x slower hot */
            {1 << 24, log(0.7), 0.02, log(0.7), 0.02, 0},
            {1 << 24, log(0.9), 0.02, log(0.8), 0.02, 2},
        };
        def[0] = 1u << 26;
        fcb_tune_choose(q, 4, FCB_OBJ_BALANCED, FCB_SHAPE_FROM, def, out);
        EXPECT(out[0] == 1u << 24, "shared threshold: %zu", out[0]);
    }

    /* two windows: B below 1K and from 32K (start, stop, high_start) */
    table(p, two, two, 0.02);
    def[0] = def[1] = def[2] = 8192;
    fcb_tune_choose(p, NG, FCB_OBJ_BALANCED, FCB_SHAPE_TWO, def, out);
    EXPECT(out[0] == 512 && out[1] == 1024 && out[2] == 32768, "two windows: %zu %zu %zu",
           out[0], out[1], out[2]);

    /* rep movsb's stop follows a measured nt_start (Zen 5: [32K, nt)), but a
     * closed window stays closed (Zen 4: threshold = stop = nt = 24M, nt measured
     * 16M: stop 16M under threshold 24M would be refused by the loader) */
    {
        const size_t M = 1u << 20;
        size_t st = fcb_tune_movsb_stop(24 * M, 24 * M, 32768, 24 * M, 2 * M);
        EXPECT(st == 2 * M, "stop follows nt: %zu", st);
        st = fcb_tune_movsb_stop(24 * M, 24 * M, 24 * M, 24 * M, 16 * M);
        EXPECT(st == 24 * M, "closed window stays closed: %zu", st);
        st = fcb_tune_movsb_stop(24 * M, 24 * M, 20 * M, 24 * M, 16 * M);
        EXPECT(st == 20 * M, "threshold past the new nt closes it: %zu", st);
        st = fcb_tune_movsb_stop(8 * M, 24 * M, 4096, 8 * M, 2 * M);
        EXPECT(st == 8 * M, "a stop of its own is kept: %zu", st);
    }

    printf("%s\n", fails ? "some checks failed" : "all checks passed");
    return fails != 0;
}
