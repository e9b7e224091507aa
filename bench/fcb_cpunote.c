/* fcb_cpunote.c - what fcbench's header says when this AMD CPU does not report
 * TopologyExtensions and its cache-topology leaf 0x8000001D reads zeros (a
 * hypervisor may leave it out; on the Zen 5 VM of 2026-12-03 every subleaf read
 * 0).  The library's probe then takes the legacy leaves (src/x86_64/probe.c); a
 * peer that reads 0x8000001D anyway takes 1-byte caches: AOCL-LibMem 5.3 then
 * streams (non-temporal stores) from about 1 KiB and ran 768 B-24 KiB copies there
 * at 0.02-0.5x glibc's speed hot while beating everything cold.  Its figures in
 * such a run are that configuration's, not the library's at its best.
 * The feature bit alone does not decide it: the Zen 5 VM of 2026-12-05 clears
 * TOPOEXT but fills the leaf (48 KiB L1d, 1 MiB L2, 32 MiB L3), and AOCL-LibMem,
 * which reads the leaf without the bit, was configured as on bare metal there. */
#include <stddef.h>
#include "fcb.h"

const char *fcb_topology_note(int amd, int topoext, int leaf_filled)
{
    if (!amd || topoext || leaf_filled)
        return NULL;
    return "this CPU does not report TopologyExtensions and its CPUID leaf 0x8000001D "
           "(cache topology) reads zeros: a library that sizes its thresholds from that leaf "
           "anyway sees 1-byte caches (AOCL-LibMem 5.3 then streams from about 1 KiB), and "
           "its figures here are that configuration's";
}
