// --trace FILE for the commands that replay a workload (simulate, mrc): the trace (cbi's or
// Accel-Sim's, docs/traces.md) takes the place of the workload and order options.
#pragma once

#include "cbi/cli/options.hpp"
#include "cbi/sim/workload.hpp"

#include <optional>
#include <string>
#include <vector>

namespace cbi::sweep {

void add_trace_option(cli::po::options_description &desc);
// The trace's workload when --trace is given (checked whole first), else nothing. Refuses the
// options that a trace fixes (workload, size, order, preset, block, ...), naming the option.
std::optional<sim::Workload> trace_workload(const cli::po::variables_map &vm);
// The trace's lines for a result's notes (what was replayed, skipped and not modelled).
std::vector<std::string> trace_notes(const sim::Workload &w);

} // namespace cbi::sweep
