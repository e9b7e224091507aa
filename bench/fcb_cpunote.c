/* fcb_cpunote.c - what fcbench's header says about this CPU's cache-topology leaf:
 * a peer that sizes its thresholds from AMD's CPUID leaf 0x8000001D reads zeros
 * where a hypervisor leaves that leaf empty (the Zen 5 VM of 2026-12-03: no
 * TopologyExtensions bit, every subleaf 0), takes 1-byte caches, and then
 * streams (non-temporal stores) from about 1 KiB: AOCL-LibMem 5.3 ran 768 B-24 KiB
 * copies there at 0.02-0.5x glibc's speed hot and beat everything cold.  Its
 * figures in such a run are that configuration's, not the library's at its best. */
#include <stddef.h>
#include "fcb.h"

const char *fcb_topology_note(int amd, unsigned max_ext_leaf, unsigned leaf1d_eax0)
{
    if (!amd || max_ext_leaf < 0x8000001du || (leaf1d_eax0 & 31u))
        return NULL; /* not AMD's leaf, or subleaf 0 names a cache */
    return "CPUID leaf 0x8000001D (cache topology) is empty on this machine: a library "
           "that sizes its thresholds from it sees 1-byte caches (AOCL-LibMem 5.3 then "
           "streams from about 1 KiB), and its figures here are that configuration's";
}
