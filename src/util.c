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

/* The one size grammar (FASTCOPY_*, the tuning file, fcbench's options): decimal
 * digits or 0x and hexadecimal digits, then optionally K, M or G (binary, either
 * case), then optionally B or iB ("64K", "64KiB", "4096B", "0x1000", "32m").  A
 * leading 0 is decimal.  Values above 2^62 are refused, not wrapped. */
int fc_parse_size(const char *s, size_t *out)
{
    uint64_t v = 0, limit = (uint64_t)1 << 62;
    int base = 10, digits = 0, shift = 0;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        base = 16, s += 2;
    for (;; s++, digits++) {
        unsigned d = *s >= '0' && *s <= '9' ? (unsigned)(*s - '0')
                     : base == 16 && (*s | 32) >= 'a' && (*s | 32) <= 'f'
                         ? (unsigned)((*s | 32) - 'a' + 10)
                         : 99;
        if (d == 99)
            break;
        if (v > (limit - d) / (uint64_t)base)
            return 0;
        v = v * (uint64_t)base + d;
    }
    if (!digits)
        return 0;
    if (*s == 'k' || *s == 'K')
        shift = 10, s++;
    else if (*s == 'm' || *s == 'M')
        shift = 20, s++;
    else if (*s == 'g' || *s == 'G')
        shift = 30, s++;
    if (s[0] == 'i' && s[1] == 'B')
        s += 2;
    else if (*s == 'B')
        s++;
    if (*s || v > limit >> shift || (v << shift) > (uint64_t)(size_t)-1)
        return 0;
    *out = (size_t)(v << shift);
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
