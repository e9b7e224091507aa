/* insn_count.c - TCG plugin for qemu-user 7.2: guest instructions executed between
 * marker instructions, accumulated per case id.
 *
 * Build (host compiler, no QEMU headers needed):
 *   gcc -O2 -shared -fPIC -Wall -Wextra -Werror -o insn_count.so insn_count.c
 * Use:
 *   qemu-aarch64 -plugin ./insn_count.so,out=counts.txt ./count ...
 *
 * Markers.  The measured program brackets each measured region with two
 * architectural no-ops that carry a case id in their immediate field and that
 * compilers never emit:
 *   aarch64  begin  movz xzr, #id            0xd280001f | id << 5
 *            end    movz xzr, #id, lsl #16   0xd2a0001f | id << 5
 *            (MOVZ with Rd = 31 writes the zero register: the result is discarded)
 *   riscv64  begin  slti  x0, x0, id         0x00002013 | id << 20
 *            end    sltiu x0, x0, id         0x00003013 | id << 20
 *            (rd = x0: HINT encodings "designated for custom use" in the ISA manual)
 * ids are 0..2047 on both.
 *
 * Counting.  Every guest instruction gets an inline "add 1" to one global counter
 * (QEMU_PLUGIN_INLINE_ADD_U64: a single host add, no helper call).  Marker
 * instructions additionally get a callback, recognised once at translation time
 * from their bytes.  The begin callback snapshots the counter; the end callback adds
 * (counter - snapshot) to the id's sum and updates its min/max and pair count.  The
 * delta therefore covers everything between the two markers plus a constant number
 * of marker instructions (the same for every id): the measured program calibrates
 * that away with an empty function measured the same way.
 *
 * The counter is global, not per vCPU: the measured program is single-threaded.
 *
 * With seq=PATH, every pair's delta is also kept in the order the pairs ended and
 * written at exit to PATH as little-endian uint32 values (the sweep of count.c
 * --sweep: one value per call, its position says which call).
 *
 * With trace=PREFIX (the cycle estimates, cycles.py), the plugin also keeps what
 * each call executed: every translation block's address, instruction sizes and
 * bytes are recorded once when QEMU translates it (identical blocks translated
 * again share one record), every executed block is appended to the open call's
 * list between a begin and an end marker (the stub's own block that starts with
 * the end marker is dropped), and each call's list is looked up among the
 * distinct lists seen so far: a call is then one index.  Written at exit:
 *   PREFIX.tbs    text, one line per block: "tb ID VADDR SIZES HEX" (SIZES the
 *                 instruction lengths, comma-separated; HEX the bytes)
 *   PREFIX.seqs   little-endian uint32: per distinct list its length, then the ids
 *   PREFIX.calls  little-endian uint32: per call (in the order calls ended) the
 *                 index of its list
 * With misalign=1 as well, every data access between the markers is checked the
 * way test/qemu_misalign_plugin.c checks it (address not a multiple of the
 * access size), and PREFIX.mis holds each call's count (uint32, call order).
 *
 * Output, at exit, to the file named by the argument out=PATH (else stderr):
 *   # insn_count v1 target=<name>
 *   id <id> pairs <n> sum <s> sumsq <sum of squares> min <m> max <M>
 *   seq <number of values written to seq=PATH>      (with seq=; seq_error on failure)
 *   trace tbs <blocks> seqs <distinct lists> calls <calls>   (with trace=;
 *                                                   trace_error on failure)
 *   total <all guest instructions executed>
 *
 * The QEMU plugin API declarations below are written by hand from the 7.2 API
 * (plugin API version 1); Debian ships no qemu-plugin.h.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the QEMU 7.2 plugin API subset used here -------------------------------------- */
#define EXPORT __attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;

typedef struct {
    const char *target_name;
    struct {
        int min;
        int cur;
    } version;
    bool system_emulation;
    union {
        struct {
            int smp_vcpus;
            int max_vcpus;
        } system;
    };
} qemu_info_t;

struct qemu_plugin_tb;
struct qemu_plugin_insn;

enum qemu_plugin_cb_flags {
    QEMU_PLUGIN_CB_NO_REGS,
    QEMU_PLUGIN_CB_R_REGS,
    QEMU_PLUGIN_CB_RW_REGS,
};

enum qemu_plugin_op {
    QEMU_PLUGIN_INLINE_ADD_U64,
};

typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
                                               struct qemu_plugin_tb *tb);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
                                           qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
                                            qemu_plugin_vcpu_udata_cb_t cb,
                                            enum qemu_plugin_cb_flags flags,
                                            void *userdata);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn,
                                                enum qemu_plugin_op op,
                                                void *ptr, uint64_t imm);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb,
                                    void *userdata);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
                                          qemu_plugin_vcpu_udata_cb_t cb,
                                          enum qemu_plugin_cb_flags flags, void *userdata);
typedef uint32_t qemu_plugin_meminfo_t;
enum qemu_plugin_mem_rw { QEMU_PLUGIN_MEM_R = 1, QEMU_PLUGIN_MEM_W, QEMU_PLUGIN_MEM_RW };
typedef void (*qemu_plugin_vcpu_mem_cb_t)(unsigned int vcpu_index, qemu_plugin_meminfo_t info,
                                          uint64_t vaddr, void *userdata);
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn,
                                      qemu_plugin_vcpu_mem_cb_t cb,
                                      enum qemu_plugin_cb_flags flags,
                                      enum qemu_plugin_mem_rw rw, void *userdata);
unsigned int qemu_plugin_mem_size_shift(qemu_plugin_meminfo_t info);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
                                                 size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
void qemu_plugin_outs(const char *string);

EXPORT extern int qemu_plugin_version;
EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
                               int argc, char **argv);

EXPORT int qemu_plugin_version = 1;

/* ---- state --------------------------------------------------------------------------- */
#define MAX_IDS 2048

struct idstat {
    uint64_t pairs, sum, sumsq, min, max;
};

static uint64_t insn_counter;        /* every guest instruction executed */
static uint64_t begin_snapshot;
static int open_id = -1;             /* id of the begin marker seen last, -1: none */
static uint64_t unmatched;           /* end markers without their begin */
static struct idstat stats[MAX_IDS];
static char out_path[4096];
static char seq_path[4096];
static uint32_t *seq;                /* with seq=: every pair's delta, in order */
static size_t seq_len, seq_cap;
static int seq_failed;
static char target[32];

enum arch { ARCH_AARCH64, ARCH_RISCV64 };
static enum arch arch;

/* ---- trace mode (trace=PREFIX) ------------------------------------------------------ */
static char trace_prefix[4000];
static int trace_misalign;           /* misalign=1 */
static int trace_failed;             /* out of memory: the trace files are not written */

/* A dynamic array of T: grow(&a.p, &a.cap, need, sizeof *a.p). */
static int grow(void *pp, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : 1024;
    while (c < need)
        c *= 2;
    void *q = realloc(*(void **)pp, c * elem);
    if (!q) {
        trace_failed = 1;
        return -1;
    }
    *(void **)pp = q;
    *cap = c;
    return 0;
}

struct tbrec {
    uint64_t vaddr;
    uint64_t hash;           /* of the bytes */
    uint32_t nbytes, ninsn;
    size_t bytes_off, sizes_off;
    int end_start;           /* the block starts with an end marker (a stub's) */
};
static struct tbrec *tbs;
static size_t ntbs, tbs_cap;
static unsigned char *tb_bytes, *tb_sizes;   /* pools */
static size_t tb_bytes_len, tb_bytes_cap, tb_sizes_len, tb_sizes_cap;
static uint32_t *tb_index;                   /* open addressing: id + 1, 0 = empty */
static size_t tb_index_cap;

struct seqrec {
    uint64_t hash;
    size_t off;
    uint32_t len;
};
static struct seqrec *seqs;
static size_t nseqs, seqs_cap;
static uint32_t *seq_pool;
static size_t seq_pool_len, seq_pool_cap;
static uint32_t *seq_index;                  /* open addressing: seq + 1, 0 = empty */
static size_t seq_index_cap;

static uint32_t *cur;                        /* the open call's blocks */
static size_t cur_len, cur_cap;
static uint32_t cur_mis;
static uint32_t *calls, *calls_mis;
static size_t ncalls, calls_cap, calls_mis_cap;

static uint64_t mix64(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdull;
    return h ^ (h >> 33);
}

static int rehash(uint32_t **index, size_t *cap, size_t n, uint64_t (*key)(size_t))
{
    size_t c = *cap ? *cap * 2 : 4096;
    uint32_t *t = calloc(c, sizeof *t);
    if (!t) {
        trace_failed = 1;
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        size_t j = key(i) & (c - 1);
        while (t[j])
            j = (j + 1) & (c - 1);
        t[j] = (uint32_t)i + 1;
    }
    free(*index);
    *index = t;
    *cap = c;
    return 0;
}

static uint64_t tb_key(size_t i) { return mix64(tbs[i].hash, tbs[i].vaddr); }
static uint64_t seq_key(size_t i) { return seqs[i].hash; }

/* The id of the block (vaddr, bytes, sizes), recorded when new; -1 when out of memory. */
static long tb_intern(uint64_t vaddr, const unsigned char *b, uint32_t nbytes,
                      const unsigned char *sz, uint32_t ninsn, int end_start)
{
    uint64_t h = 1469598103934665603ull;
    for (uint32_t i = 0; i < nbytes; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    if ((ntbs + 1) * 2 > tb_index_cap && rehash(&tb_index, &tb_index_cap, ntbs, tb_key))
        return -1;
    size_t j = mix64(h, vaddr) & (tb_index_cap - 1);
    for (; tb_index[j]; j = (j + 1) & (tb_index_cap - 1)) {
        struct tbrec *t = &tbs[tb_index[j] - 1];
        if (t->vaddr == vaddr && t->hash == h && t->nbytes == nbytes && t->ninsn == ninsn &&
            memcmp(tb_bytes + t->bytes_off, b, nbytes) == 0 &&
            memcmp(tb_sizes + t->sizes_off, sz, ninsn) == 0)
            return (long)(tb_index[j] - 1);
    }
    if (ntbs >= UINT32_MAX - 1 || grow(&tbs, &tbs_cap, ntbs + 1, sizeof *tbs) ||
        grow(&tb_bytes, &tb_bytes_cap, tb_bytes_len + nbytes, 1) ||
        grow(&tb_sizes, &tb_sizes_cap, tb_sizes_len + ninsn, 1))
        return -1;
    struct tbrec *t = &tbs[ntbs];
    *t = (struct tbrec){ vaddr, h, nbytes, ninsn, tb_bytes_len, tb_sizes_len, end_start };
    memcpy(tb_bytes + tb_bytes_len, b, nbytes);
    memcpy(tb_sizes + tb_sizes_len, sz, ninsn);
    tb_bytes_len += nbytes;
    tb_sizes_len += ninsn;
    tb_index[j] = (uint32_t)ntbs + 1;
    return (long)ntbs++;
}

static void on_tb_exec(unsigned int vcpu, void *udata)
{
    (void)vcpu;
    if (open_id < 0 || trace_failed)
        return;
    uint32_t id = (uint32_t)(uintptr_t)udata;
    if (grow(&cur, &cur_cap, cur_len + 1, sizeof *cur))
        return;
    cur[cur_len++] = id;
}

static void on_mem(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
    (void)vcpu, (void)udata;
    if (open_id >= 0 && (vaddr & ((1ull << qemu_plugin_mem_size_shift(info)) - 1)))
        cur_mis++;
}

static void trace_begin(void)
{
    cur_len = 0;
    cur_mis = 0;
}

/* The call that just ended: its list (without the stub's end block) interned. */
static void trace_end(void)
{
    if (trace_failed)
        return;
    if (cur_len == 0 || !tbs[cur[cur_len - 1]].end_start) {
        unmatched++;    /* cannot happen: the stub's end block always ends the list */
        return;
    }
    cur_len--;
    uint64_t h = 0x243f6a8885a308d3ull ^ cur_len;
    for (size_t i = 0; i < cur_len; i++)
        h = mix64(h, cur[i]);
    if ((nseqs + 1) * 2 > seq_index_cap && rehash(&seq_index, &seq_index_cap, nseqs, seq_key))
        return;
    size_t j = h & (seq_index_cap - 1);
    uint32_t found = 0;
    for (; seq_index[j]; j = (j + 1) & (seq_index_cap - 1)) {
        struct seqrec *q = &seqs[seq_index[j] - 1];
        if (q->hash == h && q->len == cur_len &&
            memcmp(seq_pool + q->off, cur, cur_len * sizeof *cur) == 0) {
            found = seq_index[j];
            break;
        }
    }
    if (!found) {
        if (grow(&seqs, &seqs_cap, nseqs + 1, sizeof *seqs) ||
            grow(&seq_pool, &seq_pool_cap, seq_pool_len + cur_len, sizeof *seq_pool))
            return;
        seqs[nseqs] = (struct seqrec){ h, seq_pool_len, (uint32_t)cur_len };
        memcpy(seq_pool + seq_pool_len, cur, cur_len * sizeof *cur);
        seq_pool_len += cur_len;
        seq_index[j] = (uint32_t)nseqs + 1;
        found = (uint32_t)++nseqs;
    }
    if (grow(&calls, &calls_cap, ncalls + 1, sizeof *calls))
        return;
    if (trace_misalign) {
        if (grow(&calls_mis, &calls_mis_cap, ncalls + 1, sizeof *calls_mis))
            return;
        calls_mis[ncalls] = cur_mis;
    }
    calls[ncalls++] = found - 1;
}

static int write_u32(const char *path, const uint32_t *v, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int bad = n && fwrite(v, sizeof *v, n, f) != n;   /* both guests and hosts: LE */
    return fclose(f) != 0 || bad ? -1 : 0;
}

static int trace_write(void)
{
    char path[4096];
    if (trace_failed)
        return -1;
    snprintf(path, sizeof path, "%s.tbs", trace_prefix);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    for (size_t i = 0; i < ntbs; i++) {
        const struct tbrec *t = &tbs[i];
        fprintf(f, "tb %zu 0x%" PRIx64 " ", i, t->vaddr);
        for (uint32_t k = 0; k < t->ninsn; k++)
            fprintf(f, "%s%u", k ? "," : "", tb_sizes[t->sizes_off + k]);
        fputc(' ', f);
        for (uint32_t k = 0; k < t->nbytes; k++)
            fprintf(f, "%02x", tb_bytes[t->bytes_off + k]);
        fputc('\n', f);
    }
    if (fclose(f) != 0)
        return -1;
    snprintf(path, sizeof path, "%s.seqs", trace_prefix);
    f = fopen(path, "wb");
    if (!f)
        return -1;
    int bad = 0;
    for (size_t i = 0; i < nseqs && !bad; i++) {
        uint32_t len = seqs[i].len;
        bad = fwrite(&len, sizeof len, 1, f) != 1 ||
              (len && fwrite(seq_pool + seqs[i].off, sizeof *seq_pool, len, f) != len);
    }
    if (fclose(f) != 0 || bad)
        return -1;
    snprintf(path, sizeof path, "%s.calls", trace_prefix);
    if (write_u32(path, calls, ncalls))
        return -1;
    snprintf(path, sizeof path, "%s.mis", trace_prefix);
    if (trace_misalign && write_u32(path, calls_mis, ncalls))
        return -1;
    return 0;
}

/* Userdata of a marker callback: id in bits 0..15, bit 16 set for an end marker. */
#define END_FLAG 0x10000u

static void on_marker(unsigned int vcpu, void *udata)
{
    unsigned int m = (unsigned int)(uintptr_t)udata;
    unsigned int id = m & 0xffffu;
    (void)vcpu;
    if (!(m & END_FLAG)) {
        open_id = (int)id;
        begin_snapshot = insn_counter;
        if (trace_prefix[0])
            trace_begin();
        return;
    }
    if (open_id != (int)id) {
        unmatched++;
        return;
    }
    uint64_t d = insn_counter - begin_snapshot;
    struct idstat *s = &stats[id];
    if (s->pairs == 0 || d < s->min)
        s->min = d;
    if (d > s->max)
        s->max = d;
    s->sum += d;
    s->sumsq += d * d;
    s->pairs++;
    open_id = -1;
    if (trace_prefix[0])
        trace_end();
    if (seq_path[0] && !seq_failed) {
        if (seq_len == seq_cap) {
            size_t cap = seq_cap ? seq_cap * 2 : 1u << 20;
            uint32_t *p = realloc(seq, cap * sizeof *seq);
            if (!p) {
                seq_failed = 1;
                return;
            }
            seq = p;
            seq_cap = cap;
        }
        seq[seq_len++] = d > UINT32_MAX ? UINT32_MAX : (uint32_t)d;
    }
}

/* Returns 0 for a begin marker, 1 for an end marker, -1 otherwise; *id set. */
static int decode_marker(const struct qemu_plugin_insn *insn, unsigned int *id)
{
    uint32_t w;
    if (qemu_plugin_insn_size(insn) != 4)
        return -1;
    memcpy(&w, qemu_plugin_insn_data(insn), 4);   /* both guests are little-endian */
    if (arch == ARCH_AARCH64) {
        /* MOVZ (64-bit), Rd = 31: sf=1 opc=10 100101 hw imm16 Rd */
        uint32_t base = w & ~(0xffffu << 5) & ~(3u << 21);
        if (base != 0xd280001fu)
            return -1;
        unsigned int hw = (w >> 21) & 3;
        *id = (w >> 5) & 0xffffu;
        if (*id >= MAX_IDS || hw > 1)
            return -1;
        return (int)hw;
    }
    /* OP-IMM with rd = x0, rs1 = x0: funct3 010 (slti) or 011 (sltiu) */
    if ((w & 0x000fffffu) == 0x00002013u || (w & 0x000fffffu) == 0x00003013u) {
        *id = w >> 20;
        if (*id >= MAX_IDS)
            return -1;
        return ((w >> 12) & 7) == 3;
    }
    return -1;
}

/* trace=: the block recorded (or found again) and its execution callback. */
static void trace_translate(struct qemu_plugin_tb *tb, size_t n)
{
    static unsigned char *b, *sz;
    static size_t bcap, szcap;
    size_t len = 0;
    int end_start = 0;
    if (trace_failed || grow(&sz, &szcap, n ? n : 1, 1))
        return;
    for (size_t i = 0; i < n; i++) {
        const struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        size_t k = qemu_plugin_insn_size(insn);
        unsigned int id;
        if (k > 255 || grow(&b, &bcap, len + k, 1))
            return;
        memcpy(b + len, qemu_plugin_insn_data(insn), k);
        len += k;
        sz[i] = (unsigned char)k;
        if (i == 0 && decode_marker(insn, &id) == 1)
            end_start = 1;
    }
    long id = tb_intern(qemu_plugin_tb_vaddr(tb), b, (uint32_t)len, sz, (uint32_t)n, end_start);
    if (id >= 0)
        qemu_plugin_register_vcpu_tb_exec_cb(tb, on_tb_exec, QEMU_PLUGIN_CB_NO_REGS,
                                             (void *)(uintptr_t)id);
}

static void on_translate(qemu_plugin_id_t pid, struct qemu_plugin_tb *tb)
{
    size_t n = qemu_plugin_tb_n_insns(tb);
    (void)pid;
    if (trace_prefix[0])
        trace_translate(tb, n);
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        unsigned int id;
        int kind = decode_marker(insn, &id);
        /* The callback is registered first so that, for the marker itself, it runs
         * before the inline add (either order would do: it is the same for both
         * markers of a pair, and a constant is calibrated away anyway). */
        if (kind >= 0)
            qemu_plugin_register_vcpu_insn_exec_cb(
                insn, on_marker, QEMU_PLUGIN_CB_NO_REGS,
                (void *)(uintptr_t)(id | (kind ? END_FLAG : 0u)));
        qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
                                                   &insn_counter, 1);
        if (trace_misalign)
            qemu_plugin_register_vcpu_mem_cb(insn, on_mem, QEMU_PLUGIN_CB_NO_REGS,
                                             QEMU_PLUGIN_MEM_RW, NULL);
    }
}

static void on_exit_cb(qemu_plugin_id_t pid, void *udata)
{
    FILE *f = NULL;
    (void)pid;
    (void)udata;
    if (out_path[0]) {
        f = fopen(out_path, "w");
        if (!f) {
            char msg[4200];
            snprintf(msg, sizeof msg, "insn_count: cannot write %s\n", out_path);
            qemu_plugin_outs(msg);
        }
    }
    if (!f)
        f = stderr;
    fprintf(f, "# insn_count v1 target=%s\n", target);
    for (unsigned int i = 0; i < MAX_IDS; i++)
        if (stats[i].pairs)
            fprintf(f, "id %u pairs %" PRIu64 " sum %" PRIu64 " sumsq %" PRIu64
                       " min %" PRIu64 " max %" PRIu64 "\n",
                    i, stats[i].pairs, stats[i].sum, stats[i].sumsq, stats[i].min,
                    stats[i].max);
    if (unmatched)
        fprintf(f, "unmatched %" PRIu64 "\n", unmatched);
    if (seq_path[0]) {
        FILE *q = seq_failed ? NULL : fopen(seq_path, "wb");
        if (!q || fwrite(seq, sizeof *seq, seq_len, q) != seq_len || fclose(q) != 0)
            fprintf(f, "seq_error %s\n", seq_path);
        else
            fprintf(f, "seq %zu\n", seq_len);
    }
    if (trace_prefix[0]) {
        if (trace_write() == 0)
            fprintf(f, "trace tbs %zu seqs %zu calls %zu\n", ntbs, nseqs, ncalls);
        else
            fprintf(f, "trace_error %s\n", trace_prefix);
    }
    fprintf(f, "total %" PRIu64 "\n", insn_counter);
    if (f != stderr)
        fclose(f);
    else
        fflush(f);
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
                               int argc, char **argv)
{
    const char *t = info && info->target_name ? info->target_name : "";
    snprintf(target, sizeof target, "%s", t);
    if (strcmp(t, "aarch64") == 0) {
        arch = ARCH_AARCH64;
    } else if (strcmp(t, "riscv64") == 0) {
        arch = ARCH_RISCV64;
    } else {
        fprintf(stderr, "insn_count: unsupported target '%s' (aarch64, riscv64)\n", t);
        return -1;
    }
    for (int i = 0; i < argc; i++) {
        if (strncmp(argv[i], "out=", 4) == 0) {
            snprintf(out_path, sizeof out_path, "%s", argv[i] + 4);
        } else if (strncmp(argv[i], "seq=", 4) == 0) {
            snprintf(seq_path, sizeof seq_path, "%s", argv[i] + 4);
        } else if (strncmp(argv[i], "trace=", 6) == 0 && argv[i][6] &&
                   strlen(argv[i] + 6) < sizeof trace_prefix) {
            snprintf(trace_prefix, sizeof trace_prefix, "%s", argv[i] + 6);
        } else if (strcmp(argv[i], "misalign=1") == 0) {
            trace_misalign = 1;
        } else {
            fprintf(stderr, "insn_count: unknown argument '%s' (out=PATH, seq=PATH, "
                            "trace=PREFIX, misalign=1)\n", argv[i]);
            return -1;
        }
    }
    if (trace_misalign && !trace_prefix[0]) {
        fprintf(stderr, "insn_count: misalign=1 needs trace=PREFIX\n");
        return -1;
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    qemu_plugin_register_atexit_cb(id, on_exit_cb, NULL);
    return 0;
}
