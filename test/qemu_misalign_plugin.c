/* qemu_misalign_plugin.c - TCG plugin for qemu-user 7.2 (built for the build
 * machine): watches every guest data access and reports those not aligned to their
 * own size.  Used by test_rv_aligned (riscv64 cross builds) to prove the "word"
 * kernels never make a misaligned access: misaligned accesses work silently under
 * QEMU, but trap to firmware on many RISC-V cores.
 *
 * The verdict is the process exit status, set here at exit: 0 when the run made
 * no misaligned access, 1 otherwise (the offending guest PCs on stderr).  The
 * guest program itself exits with 3, so a run without the plugin fails too.
 * Load with QEMU_PLUGIN=path (or -plugin path).  The few plugin-API declarations
 * (API version 1) are written out by hand: Debian ships no qemu-plugin.h. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))
typedef uint64_t qemu_plugin_id_t;
typedef uint32_t qemu_plugin_meminfo_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
typedef struct {
    const char *target_name;
    struct {
        int min, cur;
    } version;
    bool system_emulation;
    union {
        struct {
            int smp_vcpus, max_vcpus;
        } system;
    };
} qemu_info_t;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS };
enum qemu_plugin_mem_rw { QEMU_PLUGIN_MEM_R = 1, QEMU_PLUGIN_MEM_W, QEMU_PLUGIN_MEM_RW };
typedef void (*tb_trans_cb_t)(qemu_plugin_id_t, struct qemu_plugin_tb *);
typedef void (*mem_cb_t)(unsigned int, qemu_plugin_meminfo_t, uint64_t, void *);
typedef void (*udata_cb_t)(qemu_plugin_id_t, void *);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t, tb_trans_cb_t);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *, size_t);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *);
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *, mem_cb_t,
                                      enum qemu_plugin_cb_flags, enum qemu_plugin_mem_rw,
                                      void *);
unsigned int qemu_plugin_mem_size_shift(qemu_plugin_meminfo_t);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t, udata_cb_t, void *);

EXPORT int qemu_plugin_version = 1;
EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
                               char **argv);

#define MAXPC 64
static uint64_t pcs[MAXPC], hits[MAXPC];
static unsigned npc;
static uint64_t accesses, misaligned;

static void on_mem(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *pc)
{
    (void)vcpu;
    accesses++;
    if (!(vaddr & ((1ull << qemu_plugin_mem_size_shift(info)) - 1)))
        return;
    misaligned++;
    unsigned i = 0;
    while (i < npc && pcs[i] != (uint64_t)(uintptr_t)pc)
        i++;
    if (i == npc && npc < MAXPC)
        pcs[npc++] = (uint64_t)(uintptr_t)pc;
    if (i < MAXPC)
        hits[i]++;
}

static void on_tb(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    for (size_t i = 0; i < qemu_plugin_tb_n_insns(tb); i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        qemu_plugin_register_vcpu_mem_cb(insn, on_mem, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW,
                                         (void *)(uintptr_t)qemu_plugin_insn_vaddr(insn));
    }
}

static void on_exit_cb(qemu_plugin_id_t id, void *unused)
{
    (void)id, (void)unused;
    fprintf(stderr, "qemu_misalign_plugin: %llu data accesses, %llu misaligned\n",
            (unsigned long long)accesses, (unsigned long long)misaligned);
    for (unsigned i = 0; i < npc; i++)
        fprintf(stderr, "  pc 0x%llx: %llu misaligned\n", (unsigned long long)pcs[i],
                (unsigned long long)hits[i]);
    fflush(stderr);
    _exit(misaligned == 0 && accesses > 0 ? 0 : 1);
}

int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
    (void)info, (void)argc, (void)argv;
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb);
    qemu_plugin_register_atexit_cb(id, on_exit_cb, NULL);
    return 0;
}
