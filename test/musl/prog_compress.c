/* prog_compress.c - a small LZ77 compressor and decompressor (for the musl preload
 * test): reads stdin, writes the compressed stream, then checks the round trip and
 * writes a checksum of the decompressed data.  Copies go through memcpy, memmove
 * (overlapping match copies) and memset (run fills), with sizes from the data. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t compress(const unsigned char *in, size_t n, unsigned char *out)
{
    static int32_t head[1 << 14];
    size_t i = 0, o = 0, lit = 0;
    memset(head, 0xff, sizeof head);
    while (i < n) {
        size_t best = 0, dist = 0;
        if (i + 4 <= n) {
            uint32_t h = ((uint32_t)in[i] * 2654435761u ^ in[i + 1] * 40503u ^ in[i + 2] * 977u ^ in[i + 3]) & ((1 << 14) - 1);
            int32_t c = head[h];
            head[h] = (int32_t)i;
            if (c >= 0 && i - (size_t)c < 65535) {
                size_t l = 0;
                while (i + l < n && l < 1000 && in[c + l] == in[i + l])
                    l++;
                if (l >= 4)
                    best = l, dist = i - (size_t)c;
            }
        }
        if (best || lit == 255 || i + 1 == n) {
            if (!best)
                lit++, i++;
            out[o++] = (unsigned char)lit;
            memcpy(out + o, in + i - lit, lit);
            o += lit;
            lit = 0;
            if (best) {
                out[o++] = (unsigned char)(best >> 8);
                out[o++] = (unsigned char)best;
                out[o++] = (unsigned char)(dist >> 8);
                out[o++] = (unsigned char)dist;
                i += best;
            } else {
                out[o++] = 0, out[o++] = 0;
            }
        } else {
            lit++, i++;
        }
    }
    return o;
}

static size_t decompress(const unsigned char *in, size_t n, unsigned char *out)
{
    size_t i = 0, o = 0;
    while (i < n) {
        size_t lit = in[i++];
        memcpy(out + o, in + i, lit);
        i += lit, o += lit;
        if (i >= n)
            break;
        size_t len = (size_t)in[i] << 8 | in[i + 1];
        i += 2;
        if (!len)
            continue;
        size_t dist = (size_t)in[i] << 8 | in[i + 1];
        i += 2;
        if (dist == 1) {
            memset(out + o, out[o - 1], len);
        } else {
            while (len) { /* overlapping matches copy in steps of at most dist */
                size_t c = len < dist ? len : dist;
                memmove(out + o, out + o - dist, c);
                o += c, len -= c;
            }
            continue;
        }
        o += len;
    }
    return o;
}

int main(void)
{
    size_t cap = 1 << 20, n = 0, r;
    unsigned char *in = malloc(cap);
    while ((r = fread(in + n, 1, cap - n, stdin)) > 0)
        if ((n += r) == cap)
            in = realloc(in, cap *= 2);
    unsigned char *z = malloc(n * 2 + 16), *back = malloc(n + 1000);
    size_t zn = compress(in, n, z);
    fwrite(z, 1, zn, stdout);
    size_t bn = decompress(z, zn, back);
    uint64_t h = 1469598103934665603u;
    for (size_t i = 0; i < bn; i++)
        h = (h ^ back[i]) * 1099511628211u;
    fprintf(stdout, "\n%zu -> %zu bytes, round trip %s, fnv %016llx\n", n, zn,
            bn == n && !memcmp(in, back, n) ? "ok" : "BAD", (unsigned long long)h);
    return bn == n && !memcmp(in, back, n) ? 0 : 1;
}
