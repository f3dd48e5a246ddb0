// cbi simulate apart from argv and printing: its options and its run from parsed options to the
// result table, shared by the command (simulate_cmd.cpp) and the Python module (cbi.simulate), so
// that both run the same configuration the same way.
#pragma once

#include "cbi/cli/options.hpp"
#include "cbi/cli/output.hpp"
#include "cbi/sim/gpu_model.hpp"
#include "cbi/sim/simulate.hpp"

namespace cbi::cli {

// The options of cbi simulate but --preset and the output options: the workload, order and cache
// groups, --model, the GPU model's --device/--block/--sample-sms, --classify-misses, --progress.
void add_simulate_options(po::options_description &desc);

// Runs what the parsed options say (the sequential simulator, or the GPU model with --model gpu)
// and returns cbi simulate's result. `interrupt`, if given, is called every few million threads and
// may throw to stop the run; progress lines go to stderr with --progress, or for runs of over 2^30
// accesses when stderr is a terminal.
Table simulate_result(const po::variables_map &vm, const sim::Progress &interrupt = {});

// The result tables: per-level counts of the sequential simulator; the GPU model's Nsight-named
// counts and predicted time.
Table simulation_table(const sim::SimConfig &c, const sim::SimResult &r);
Table gpu_table(const sim::GpuConfig &c, const sim::GpuResult &r);

} // namespace cbi::cli
