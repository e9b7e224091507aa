/* tun_offsets.c - compiled to assembly (never linked) by tun_offsets.py, which
 * turns the markers below into fc_tun_offsets.h: the byte offset of each field of
 * struct fc_tunables, for the kernels written in assembly, as the target
 * compiler lays the struct out (the way glibc generates its assembler constants). */
#include "fc_internal.h"

void fc_tun_offsets(void);
void fc_tun_offsets(void)
{
#define FC_TUNABLE(field, env, arch, min, max, meaning)                                \
    __asm__ volatile(".ascii \"@@@FC_TUN " #field " %0 @@@\""                         \
                     : : "i"(__builtin_offsetof(struct fc_tunables, field)));
#include "tunables.def"
#undef FC_TUNABLE
}
