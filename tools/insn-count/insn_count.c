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
 * Output, at exit, to the file named by the argument out=PATH (else stderr):
 *   # insn_count v1 target=<name>
 *   id <id> pairs <n> sum <s> sumsq <sum of squares> min <m> max <M>
 *   seq <number of values written to seq=PATH>      (with seq=; seq_error on failure)
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

static void on_translate(qemu_plugin_id_t pid, struct qemu_plugin_tb *tb)
{
    size_t n = qemu_plugin_tb_n_insns(tb);
    (void)pid;
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
        } else {
            fprintf(stderr, "insn_count: unknown argument '%s' (out=PATH, seq=PATH)\n",
                    argv[i]);
            return -1;
        }
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    qemu_plugin_register_atexit_cb(id, on_exit_cb, NULL);
    return 0;
}
