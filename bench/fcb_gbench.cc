// fcb_gbench.cc - Google Benchmark front end: registers fcbench's cases (fcb.h) as
// benchmarks named "<case>/<impl>" (e.g. "memcpy/mix/MemcpyGoogleA/libc").  One
// iteration runs a batch of calls (a whole pass over a size mix, 256 small hot calls,
// ...) so the harness's own per-iteration cost stays out of the figures; the counter
// ns_per_call (nanoseconds, a plain number) and items_per_second (calls/s) give the per-call time.  Its JSON output works with
// Google Benchmark's tools/compare.py, e.g. to compare two implementations:
//   compare.py filters out.json 'memcpy/sizes/.*/libc$' 'memcpy/sizes/.*/auto$'
// fcbench's own selection options come first (--quick, --func, --group, --case,
// --impl, --max-size, --l1/--l2/--l3, --cpu, --seed); the rest go to Google
// Benchmark (--benchmark_format=json, --benchmark_out=FILE, ...).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "fastcopy.h"
#include "fcb.h"

static fcb_state st;

static void run_item(benchmark::State &state, int j)
{
    fcb_item *it = &st.items[j];
    const fcb_case *c = &st.cases[it->c];
    uint64_t batch = c->nops > 1 ? (c->nops < 8192 ? c->nops : 8192)
                     : c->size <= 4096 ? 256 : c->size <= (1u << 20) ? 4 : 1;
    fcb_warm(&st, it);
    double t0 = fcb_now_ns();
    for (auto _ : state)
        fcb_exec(&st, it, batch);
    double elapsed = fcb_now_ns() - t0;
    double calls = static_cast<double>(state.iterations()) * static_cast<double>(batch);
    state.SetItemsProcessed(static_cast<int64_t>(calls));
    state.SetBytesProcessed(static_cast<int64_t>(calls * static_cast<double>(c->size)));
    state.counters["size"] = static_cast<double>(c->size);
    // A plain number of nanoseconds (wall time of the timed loop / calls), not a
    // rate: Google Benchmark prints inverted rates with an "s" unit.
    state.counters["ns_per_call"] = calls > 0 ? elapsed / calls : 0.0;
}

int main(int argc, char **argv)
{
    fcb_config_default(&st.cfg);
    fcb_prog = "fcbench-gbench";
    st.cfg.progress = -1;
    std::vector<char *> rest;
    rest.push_back(argv[0]);
    for (int k = 1; k < argc; k++) {
        int used = fcb_config_arg(&st.cfg, argc, argv, &k);
        if (used < 0)
            return 2;
        if (used > 0) {
            k += used - 1;
            continue;
        }
        if (!std::strcmp(argv[k], "--version")) {
            std::printf("fcbench-gbench (libfastcopy) %s\n", fc_version());
            return 0;
        }
        if (!std::strcmp(argv[k], "--help") || !std::strcmp(argv[k], "-h")) {
            std::puts("usage: fcbench-gbench [fcbench case options] [Google Benchmark options]");
            fcb_config_usage();
            std::puts("then any --benchmark_* option (see --help of Google Benchmark).");
        } else if (std::strncmp(argv[k], "--benchmark_", 12) && std::strncmp(argv[k], "--v=", 4)) {
            // Google Benchmark would say so too, but only after the setup.
            fcb_err("unknown option '%s' (fcbench's case options, then --benchmark_* "
                    "options; try --help)\n", argv[k]);
            return 2;
        }
        rest.push_back(argv[k]);
    }
    int rargc = static_cast<int>(rest.size());
    rest.push_back(nullptr);
    if (fcb_config_check(&st.cfg))
        return 2;
    int rc = fcb_setup(&st);
    if (rc)
        return rc == FCB_EUSAGE ? 2 : 1;
    if (!st.nitems) {
        fcb_err("nothing to run with these options\n");
        return 2;
    }
    if (st.nitems > 200)
        fcb_err("%d benchmarks; at Google Benchmark's defaults (0.5 s "
                     "each, more for slow ones) that is %d minutes or more: narrow with "
                     "--case or pass --benchmark_min_time=0.01\n",
                     st.nitems, st.nitems / 120 + 1);
    for (int j = 0; j < st.nitems; j++) {
        std::string name = std::string(st.cases[st.items[j].c].name) + "/" +
                           st.impls[st.items[j].i].name;
        benchmark::RegisterBenchmark(name.c_str(), run_item, j);
    }
    benchmark::AddCustomContext("fastcopy_arch", fcb_arch());
    benchmark::Initialize(&rargc, rest.data());
    if (benchmark::ReportUnrecognizedArguments(rargc, rest.data()))
        return 2;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    fcb_teardown(&st);
    return 0;
}
