// cbi tune from parsed options to its result table: the options it declares, the search
// (sim::tune, cbi/sim/tune.hpp) and the ranking as a table. The command
// (experiments/src/commands/tune_cmd.cpp) and cbi.tune in Python both call these, so that a
// configuration ranks the same, with the same names, from either.
#pragma once

#include "cbi/cli/output.hpp"
#include "cbi/sim/tune.hpp"

#include <boost/program_options.hpp>

namespace cbi::config {

namespace po = boost::program_options;

// The options of cbi tune but the output options: the workload group, --device, --block,
// --orders, --search, --finalists, --jobs, --sample-sms, --progress.
void add_tune_options(po::options_description &desc);

// Where no search is asked for (--search, --finalists, --final-sms, --sample-sms), a search runs
// in full (every distinct order on the full device) where its full search is estimated to take at
// most kFullSearchSeconds of wall time on the threads it gets (sim::full_search_seconds: --jobs,
// else the host's cores), or where its orders replay at most kFullSearchAccesses accesses in all
// (the workload's, once per order): the short kernels on which stage one ranks far from the full
// device (a float 3x3 stencil on 4096^2: 46 s in full on one thread, and staged its pick and tie
// group change: docs/results/gpu-model-speed.md, 2026-11-29). Else it is staged. The README's
// matmul 1024 (19 orders, about 84 s in full on two cores, 45 G accesses) is staged.
inline constexpr double kFullSearchSeconds = 20.0;
inline constexpr double kFullSearchAccesses = 4294967296.0; // 2^32

// The search the parsed options ask for (refusing what does not apply: --orders for the tiled
// kernels, --finalists without the staged search, ...).
sim::TuneConfig tune_config(const po::variables_map &vm);

// A search that replays more than 2^30 accesses in all (the workload's, once per order), as
// simulate's long_run: its progress is shown unasked, as lines when stderr is not a terminal.
bool long_tune(const sim::TuneConfig &c);

// Runs it and returns cbi tune's result: one row per order, fastest first, JSON {"ranking":
// [...]}. Progress goes to stderr when it is a terminal, with --progress, or for a long search
// (long_tune); `interrupt`, if given,
// is called on the calling thread as the search goes and may throw to stop it.
cli::Table tune_result(const po::variables_map &vm, const sim::Progress &interrupt = {});

// The ranking as a table.
cli::Table tune_table(const sim::TuneConfig &c, const sim::TuneResult &t);

} // namespace cbi::config
