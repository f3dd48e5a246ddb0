// cbi simulate and cbi mrc from parsed options to their result tables: the options each declares,
// the run through point_from (the one route from options to a point, point_options.hpp) and the
// tables that name its results. The commands (experiments/src/commands/) and the Python module
// (cbi.simulate, cbi.simulate_gpu, cbi.mrc) both call these, so that a configuration gives the same
// result, with the same names, from either.
#pragma once

#include "cbi/cli/options.hpp"
#include "cbi/cli/output.hpp"
#include "cbi/config/point_options.hpp"
#include "cbi/sim/gpu_model.hpp"
#include "cbi/sim/simulate.hpp"

namespace cbi::config {

namespace po = boost::program_options;

// The options of cbi simulate but --preset and the output options: the workload, order, cache and
// trace groups, --model, the GPU model's --device/--block/--sample-sms, --classify-misses,
// --progress.
void add_simulate_options(po::options_description &desc);

// Runs what the parsed options say (the sequential simulator, or the GPU model with --model gpu)
// and returns cbi simulate's result. `interrupt`, if given, is called as the run goes and may throw
// to stop it; `own`, a workload of your own in place of the workload options. Progress goes to
// stderr with --progress, or for runs of over 2^30 accesses when stderr is a terminal.
cli::Table simulate_result(const po::variables_map &vm, const sim::Progress &interrupt = {},
                           const OwnWorkload &own = {});

// The result tables: per-level counts of the sequential simulator; the GPU model's Nsight-named
// counts and predicted time.
cli::Table simulation_table(const sim::SimConfig &c, const sim::SimResult &r);
cli::Table gpu_table(const sim::GpuConfig &c, const sim::GpuResult &r);

// The options of cbi mrc but --preset and the output options: the workload, order and trace
// groups, --line-bytes, --sizes, --verify.
void add_mrc_options(po::options_description &desc);

// The miss-ratio curve the parsed options ask for, as cbi mrc's result (one row per size).
// `interrupt`, if given, is called as the run goes and may throw to stop it.
cli::Table mrc_result(const po::variables_map &vm, const sim::Progress &interrupt = {},
                      const OwnWorkload &own = {});

} // namespace cbi::config
