/* prog_sort.c - sorts the lines of stdin (for the musl preload test): qsort over
 * records copied into a pool, then a stable merge sort of the same records by
 * length, whose merges move records with memmove; prints both orders. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rec { char *s; size_t n; };

static int by_text(const void *a, const void *b)
{
    const struct rec *x = a, *y = b;
    size_t m = x->n < y->n ? x->n : y->n;
    int c = memcmp(x->s, y->s, m);
    return c ? c : (x->n > y->n) - (x->n < y->n);
}

static void merge_by_len(struct rec *r, struct rec *tmp, size_t n)
{
    if (n < 2)
        return;
    size_t h = n / 2;
    merge_by_len(r, tmp, h);
    merge_by_len(r + h, tmp, n - h);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = r[j].n < r[i].n ? r[j++] : r[i++];
    memmove(tmp + k, r + i, (h - i) * sizeof *r);
    k += h - i;
    memcpy(r, tmp, k * sizeof *r);
}

int main(void)
{
    size_t cap = 1024, n = 0, pool_cap = 1 << 20, used = 0;
    struct rec *r = malloc(cap * sizeof *r);
    char *pool = malloc(pool_cap), line[4096];
    while (fgets(line, sizeof line, stdin)) {
        size_t l = strlen(line);
        if (n == cap)
            r = realloc(r, (cap *= 2) * sizeof *r);
        if (used + l > pool_cap) {
            pool = malloc(pool_cap = pool_cap > l ? pool_cap : l);
            used = 0;
        }
        memcpy(pool + used, line, l);
        r[n].s = pool + used;
        r[n++].n = l;
        used += l;
    }
    qsort(r, n, sizeof *r, by_text);
    for (size_t i = 0; i < n; i++)
        fwrite(r[i].s, 1, r[i].n, stdout);
    struct rec *tmp = malloc((n + 1) * sizeof *r);
    merge_by_len(r, tmp, n);
    for (size_t i = 0; i < n; i++)
        fwrite(r[i].s, 1, r[i].n, stdout);
    return 0;
}
