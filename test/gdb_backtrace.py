# gdb_backtrace.py - gdb unwinds from inside every kernel.  The test suite runs
#   gdb -batch -nx -x gdb_backtrace.py --args unwind_prog
# It stops at the entry of each library kernel that unwind_prog calls (the
# fc_memmove_*, fc_memcpy_* and fc_memset_* functions, C and assembly, and their
# helpers), single-steps up to STEPS instructions into it, and at every one walks
# the stack: main must be reached, through call_variant, with every frame named.
# Each kernel is checked at its first call (the large size: its loop).  Exit
# status 0 when every check passed and at least one kernel was reached.
import re
import gdb

STEPS = 40
failures = []
checked = []


def frames_ok(kernel):
    names = []
    f = gdb.newest_frame()
    while f is not None and len(names) < 16:
        names.append(f.name() or "??")
        if names[-1] == "main":
            break
        try:
            f = f.older()
        except gdb.error as e:
            names.append("(%s)" % e)
            break
    ok = names[-1] == "main" and "call_variant" in names and "??" not in names
    if not ok:
        failures.append("%s at %s: %s" % (kernel, hex(int(gdb.newest_frame().pc())),
                                          " <- ".join(names)))
    return ok


def alive():
    return gdb.selected_inferior().pid != 0


gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("start", to_string=True)  # the library is loaded: its symbols are known
kernels = sorted(set(re.findall(r"\b(fc_mem(?:move|cpy|set)_\w+)",
                                gdb.execute("info functions ^fc_mem", to_string=True))))
for k in kernels:
    gdb.Breakpoint(k, temporary=True)  # one stop per kernel
while alive():
    try:
        gdb.execute("continue", to_string=True)
    except gdb.error:
        break
    if not alive():
        break
    kernel, steps = gdb.newest_frame().name(), 0
    while steps < STEPS and frames_ok(kernel):  # also into a helper it jumps to
        gdb.execute("stepi", to_string=True)
        steps += 1
        if not alive() or gdb.newest_frame().name() not in kernels:
            break
        if gdb.newest_frame().name() != kernel:
            checked.append("%s (%d instructions)" % (kernel, steps))
            kernel, steps = gdb.newest_frame().name(), 0
    checked.append("%s (%d instructions)" % (kernel, steps))

for c in checked:
    print("unwound from " + c)
for f in failures:
    print("FAIL: " + f)
print("%d passed, %d failed (%d kernels known)" % (len(checked) - len(failures),
                                                    len(failures), len(kernels)))
gdb.execute("quit %d" % (1 if failures or not checked else 0))
