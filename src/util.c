/* util.c - freestanding string helpers for code that runs inside IFUNC resolvers
 * (no libc there).  Plain loops: the build's -fno-builtin and
 * -fno-tree-loop-distribute-patterns keep GCC from turning them into calls. */
#include "fc_internal.h"

size_t fc_strlen(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

int fc_streq(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return *a == *b;
}

void fc_strcat(char *dst, size_t cap, const char *src)
{
    size_t n = fc_strlen(dst);
    while (*src && n + 1 < cap)
        dst[n++] = *src++;
    dst[n] = 0;
}

void fc_strcat_size(char *dst, size_t cap, uint64_t v)
{
    char tmp[32];
    int i = (int)sizeof tmp - 1;
    const char *suffix = "";
    if (v && v % (1024 * 1024 * 1024) == 0)
        v /= 1024 * 1024 * 1024, suffix = "G";
    else if (v && v % (1024 * 1024) == 0)
        v /= 1024 * 1024, suffix = "M";
    else if (v && v % 1024 == 0)
        v /= 1024, suffix = "K";
    tmp[i] = 0;
    do {
        tmp[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    fc_strcat(dst, cap, tmp + i);
    fc_strcat(dst, cap, suffix);
}

void fc_bytezero(void *p, size_t n)
{
    volatile unsigned char *b = p;
    while (n--)
        *b++ = 0;
}

void fc_bytecopy(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const volatile unsigned char *s = src;
    while (n--)
        *d++ = *s++;
}

/* "123", "64K", "24M", "1G" (binary units) -> bytes: 1, or 0 on a syntax error. */
int fc_parse_size(const char *s, size_t *out)
{
    uint64_t v = 0;
    if (*s < '0' || *s > '9')
        return 0;
    for (; *s >= '0' && *s <= '9'; s++) {
        if (v > ((uint64_t)1 << 50))
            return 0;
        v = v * 10 + (uint64_t)(*s - '0');
    }
    int shift = 0;
    if (*s == 'k' || *s == 'K')
        shift = 10, s++;
    else if (*s == 'm' || *s == 'M')
        shift = 20, s++;
    else if (*s == 'g' || *s == 'G')
        shift = 30, s++;
    if (*s || v > ((uint64_t)1 << 50) >> shift)
        return 0;
    v <<= shift;
    *out = (size_t)v;
    return 1;
}

void fc_decision_set(struct fc_decision *d, int f, int idx, const char *why1, const char *why2)
{
    d->sel[f] = (unsigned char)(idx < 0 ? 0 : idx);
    d->why[f][0] = 0;
    fc_strcat(d->why[f], FC_WHY_LEN, why1);
    fc_strcat(d->why[f], FC_WHY_LEN, why2);
}

void fc_strcat_hex(char *dst, size_t cap, uint64_t v)
{
    char num[19];
    int k = sizeof num - 1;
    num[k] = 0;
    do
        num[--k] = "0123456789abcdef"[v & 15];
    while ((v >>= 4) && k > 2);
    num[--k] = 'x';
    num[--k] = '0';
    fc_strcat(dst, cap, num + k);
}

void fc_strcat_num(char *dst, size_t cap, const char *label, uint64_t v, int hex)
{
    fc_strcat(dst, cap, label);
    if (hex)
        fc_strcat_hex(dst, cap, v);
    else
        fc_strcat_size(dst, cap, v);
}
