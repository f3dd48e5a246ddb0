// cbi mrc apart from argv and printing: its options and its run from parsed options to the result
// table, shared by the command (mrc_cmd.cpp) and the Python module (cbi.mrc).
#pragma once

#include "cbi/cli/options.hpp"
#include "cbi/cli/output.hpp"
#include "cbi/sim/simulate.hpp"

namespace cbi::cli {

// The options of cbi mrc but --preset and the output options: the workload and order groups,
// --line-bytes, --sizes, --verify.
void add_mrc_options(po::options_description &desc);

// The miss-ratio curve the parsed options ask for, as cbi mrc's result (one row per size).
// `interrupt`, if given, is called every few million threads and may throw to stop the run.
Table mrc_result(const po::variables_map &vm, const sim::Progress &interrupt = {});

} // namespace cbi::cli
