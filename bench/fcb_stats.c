/* fcb_stats.c - medians and spread, and ministat's Student t comparison.
 *
 * ministat (FreeBSD) compares two samples with the pooled-variance two-sample
 * Student t test on their means and prints the difference with its confidence
 * interval, or "No difference proven at 95.0% confidence" when the interval
 * contains zero.  The same here; the table additionally shows medians (robust on a
 * noisy VM) and the ratio of medians.  `fcbench --processes` compares its
 * per-process medians in pairs instead (fcb_compare_paired). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fcb.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Linear interpolation between order statistics (type 7, as R and numpy). */
static double quantile(const double *sorted, int n, double p)
{
    double h = (n - 1) * p;
    int lo = (int)floor(h);
    int hi = lo + 1 < n ? lo + 1 : lo;
    return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

void fcb_summarize(const double *x, int n, struct fcb_summary *s)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    if (n <= 0)
        return;
    double stack[64];
    double *v = n <= 64 ? stack : malloc(sizeof(double) * (size_t)n);
    if (!v)
        return;
    memcpy(v, x, sizeof(double) * (size_t)n);
    qsort(v, (size_t)n, sizeof(double), cmp_double);
    s->min = v[0];
    s->max = v[n - 1];
    s->median = quantile(v, n, 0.5);
    s->q1 = quantile(v, n, 0.25);
    s->q3 = quantile(v, n, 0.75);
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += v[i];
    s->mean = sum / n;
    double ss = 0;
    for (int i = 0; i < n; i++)
        ss += (v[i] - s->mean) * (v[i] - s->mean);
    s->sd = n > 1 ? sqrt(ss / (n - 1)) : 0;
    if (v != stack)
        free(v);
}

/* t_{df, 0.975}: exact table to 30 degrees of freedom, then the Cornish-Fisher
 * expansion around the normal quantile (error < 1e-4 from df = 30). */
double fcb_t975(int df)
{
    static const double tab[31] = {
        0,      12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201,  2.179,  2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
        2.080,  2.074,  2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
    if (df < 1)
        return NAN;
    if (df <= 30)
        return tab[df];
    const double z = 1.959963985;
    double z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z;
    double d = df;
    return z + (z3 + z) / (4 * d) + (5 * z5 + 16 * z3 + 3 * z) / (96 * d * d) +
           (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * d * d * d);
}

int fcb_compare(const double *a, int na, const double *b, int nb, double *diff,
                double *lo, double *hi)
{
    struct fcb_summary sa, sb;
    *diff = *lo = *hi = NAN;
    if (na < 2 || nb < 2)
        return -1;
    fcb_summarize(a, na, &sa);
    fcb_summarize(b, nb, &sb);
    int df = na + nb - 2;
    double sp2 = ((na - 1) * sa.sd * sa.sd + (nb - 1) * sb.sd * sb.sd) / df;
    double se = sqrt(sp2 * (1.0 / na + 1.0 / nb));
    double half = fcb_t975(df) * se;
    *diff = sa.mean - sb.mean;
    *lo = *diff - half;
    *hi = *diff + half;
    return !(*lo <= 0 && *hi >= 0);
}

int fcb_compare_paired(const double *a, const double *b, int n, double *diff, double *lo,
                       double *hi)
{
    *diff = *lo = *hi = NAN;
    if (n < 2)
        return -1;
    double m = 0, ss = 0;
    for (int k = 0; k < n; k++) {
        if (!(a[k] > 0) || !(b[k] > 0))
            return -1;
        m += log(a[k] / b[k]);
    }
    m /= n;
    for (int k = 0; k < n; k++) {
        double e = log(a[k] / b[k]) - m;
        ss += e * e;
    }
    double half = fcb_t975(n - 1) * sqrt(ss / (n - 1) / n);
    struct fcb_summary sb;
    fcb_summarize(b, n, &sb);
    *diff = (exp(m) - 1) * sb.median;
    *lo = (exp(m - half) - 1) * sb.median;
    *hi = (exp(m + half) - 1) * sb.median;
    return !(*lo <= 0 && *hi >= 0);
}
