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

/* ---- multiplicity-corrected comparisons --------------------------------------------- */

/* The regularized incomplete beta function I_x(a, b): the continued fraction by
 * the modified Lentz method, on the side where it converges fast. */
static double betacf(double a, double b, double x)
{
    const double tiny = 1e-300;
    double c = 1, d = 1 - (a + b) * x / (a + 1);
    d = 1 / (fabs(d) < tiny ? tiny : d);
    double h = d;
    for (int m = 1; m <= 500; m++) {
        int m2 = 2 * m;
        double aa = m * (b - m) * x / ((a - 1 + m2) * (a + m2));
        d = 1 + aa * d;
        c = 1 + aa / c;
        d = 1 / (fabs(d) < tiny ? tiny : d);
        c = fabs(c) < tiny ? tiny : c;
        h *= d * c;
        aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + 1 + m2));
        d = 1 + aa * d;
        c = 1 + aa / c;
        d = 1 / (fabs(d) < tiny ? tiny : d);
        c = fabs(c) < tiny ? tiny : c;
        double del = d * c;
        h *= del;
        if (fabs(del - 1) < 1e-15)
            break;
    }
    return h;
}

static double betai(double a, double b, double x)
{
    if (x <= 0)
        return 0;
    if (x >= 1)
        return 1;
    double lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
    if (x < (a + 1) / (a + b + 2))
        return exp(lbt) * betacf(a, b, x) / a;
    return 1 - exp(lbt) * betacf(b, a, 1 - x) / b;
}

double fcb_t_sf(double t, int df)
{
    if (isnan(t) || df < 1)
        return NAN;
    if (isinf(t))
        return t > 0 ? 0 : 1;
    double tail = 0.5 * betai(df / 2.0, 0.5, df / (df + t * t));
    return t >= 0 ? tail : 1 - tail;
}

double fcb_t_quantile(double p, int df)
{
    if (!(p > 0 && p < 1) || df < 1)
        return NAN;
    if (p < 0.5)
        return -fcb_t_quantile(1 - p, df);
    if (p == 0.5)
        return 0;
    double tail = 1 - p, lo = 0, hi = 1;
    while (fcb_t_sf(hi, df) > tail && hi < 1e300)
        hi *= 2;
    for (int k = 0; k < 200 && hi - lo > 1e-12 * hi; k++) {
        double mid = 0.5 * (lo + hi);
        if (fcb_t_sf(mid, df) > tail)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

int fcb_cmp_unpaired(const double *a, int na, const double *b, int nb, struct fcb_cmp *c)
{
    struct fcb_summary sa, sb;
    memset(c, 0, sizeof *c);
    c->x = c->se = NAN;
    if (na < 2 || nb < 2)
        return -1;
    fcb_summarize(a, na, &sa);
    fcb_summarize(b, nb, &sb);
    if (!(sb.mean > 0))
        return -1;
    c->df = na + nb - 2;
    double sp2 = ((na - 1) * sa.sd * sa.sd + (nb - 1) * sb.sd * sb.sd) / c->df;
    c->base = sb.mean;
    c->x = (sa.mean - sb.mean) / sb.mean;
    c->se = sqrt(sp2 * (1.0 / na + 1.0 / nb)) / sb.mean;
    return 0;
}

int fcb_cmp_logs(const double *l, int n, struct fcb_cmp *c)
{
    memset(c, 0, sizeof *c);
    c->x = c->se = NAN;
    c->log = 1;
    if (n < 2)
        return -1;
    double m = 0, ss = 0;
    for (int k = 0; k < n; k++)
        m += l[k];
    m /= n;
    for (int k = 0; k < n; k++)
        ss += (l[k] - m) * (l[k] - m);
    if (!isfinite(m))
        return -1;
    c->df = n - 1;
    c->x = m;
    c->se = sqrt(ss / (n - 1) / n);
    return 0;
}

int fcb_cmp_paired(const double *a, const double *b, int n, struct fcb_cmp *c)
{
    double stack[64], *l = n <= 64 ? stack : malloc(sizeof(double) * (size_t)n);
    int rc = -1;
    memset(c, 0, sizeof *c);
    c->x = c->se = NAN;
    c->log = 1;
    if (!l || n < 2)
        goto out;
    for (int k = 0; k < n; k++) {
        if (!(a[k] > 0) || !(b[k] > 0))
            goto out;
        l[k] = log(a[k] / b[k]);
    }
    rc = fcb_cmp_logs(l, n, c);
    if (!rc) {
        struct fcb_summary sb;
        fcb_summarize(b, n, &sb);
        c->base = sb.median;
    }
out:
    if (l != stack)
        free(l);
    if (rc) {
        memset(c, 0, sizeof *c);
        c->x = c->se = NAN;
        c->log = 1;
    }
    return rc;
}

/* The estimate's bounds on its own scale for the ratio band [lo, hi]. */
static double to_scale(const struct fcb_cmp *c, double ratio)
{
    return c->log ? log(ratio) : ratio - 1;
}

static double from_scale(const struct fcb_cmp *c, double x)
{
    return c->log ? exp(x) : 1 + x;
}

/* 2 P(T > z), at most 1; z = +inf gives 0 (no spread, beyond the bound). */
static double two_tail(double z, int df)
{
    if (isnan(z))
        return 1;
    double p = 2 * fcb_t_sf(z, df);
    return p > 1 ? 1 : p;
}

double fcb_cmp_p_above(const struct fcb_cmp *c, double ratio)
{
    if (isnan(c->x) || c->df < 1 || !(ratio > 0))
        return NAN;
    double d = c->x - to_scale(c, ratio);
    return two_tail(c->se > 0 ? d / c->se : d > 0 ? INFINITY : -INFINITY, c->df);
}

double fcb_cmp_p(const struct fcb_cmp *c, double margin, int *dir)
{
    *dir = 0;
    if (isnan(c->x) || c->df < 1)
        return NAN;
    double ps = fcb_cmp_p_above(c, 1 + margin);
    double d = to_scale(c, 1 / (1 + margin)) - c->x; /* below the band */
    double pf = two_tail(c->se > 0 ? d / c->se : d > 0 ? INFINITY : -INFINITY, c->df);
    *dir = ps <= pf ? 1 : -1;
    return ps <= pf ? ps : pf;
}

void fcb_cmp_interval(const struct fcb_cmp *c, double level, double *lo, double *hi)
{
    *lo = *hi = NAN;
    if (isnan(c->x) || c->df < 1 || !(level > 0 && level < 1))
        return;
    double h = c->se > 0 ? fcb_t_quantile(1 - (1 - level) / 2, c->df) * c->se : 0;
    *lo = from_scale(c, c->x - h);
    *hi = from_scale(c, c->x + h);
}

int fcb_bh(const double *p, int n, double q, unsigned char *reject)
{
    int m = 0, k = 0;
    int *idx = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    for (int i = 0; i < n; i++) {
        reject[i] = 0;
        if (!isnan(p[i]) && idx)
            idx[m++] = i;
    }
    if (!idx)
        return 0;
    /* insertion sort by p: families are at most a few thousand cells */
    for (int i = 1; i < m; i++) {
        int v = idx[i], j = i;
        for (; j > 0 && p[idx[j - 1]] > p[v]; j--)
            idx[j] = idx[j - 1];
        idx[j] = v;
    }
    for (int r = 0; r < m; r++)
        if (p[idx[r]] <= q * (r + 1) / m)
            k = r + 1;
    for (int r = 0; r < k; r++)
        reject[idx[r]] = 1;
    free(idx);
    return k;
}
