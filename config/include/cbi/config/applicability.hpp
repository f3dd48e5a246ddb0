// Which options apply to which engine, in one table (applicability.cpp). The refusals (exit 2, one
// line naming the option) and the help's note on which options each engine takes are generated
// from it, so an option is never accepted and ignored.
#pragma once

#include "cbi/cli/options.hpp"
#include "cbi/sim/workloads.hpp"

#include <string>

namespace cbi::config {

// The engines a command's options can build a point for.
enum class Engine : unsigned {
  sequential = 1, // the exact cache simulator (--model sequential)
  gpu_model = 2,  // the GPU model (--model gpu)
};

// --model: sequential (default) or gpu; UsageError naming --model otherwise.
Engine parse_model(const cli::po::variables_map &vm);

// Throws UsageError naming the first option of `vm` that the table says does not apply to
// `engine` in `command` ("simulate", "diagram", ...), saying which engine it applies to and what
// is allowed instead; with --trace, the first option that the trace fixes (the workload options,
// --order, --block, --preset).
void refuse_inapplicable(const cli::po::variables_map &vm, Engine engine,
                         const std::string &command);

// Throws UsageError naming the first option of `vm` that the workload `kind` does not take, in the
// table's words (--block-order: only the tiled kernels order their thread blocks over tiles).
void refuse_inapplicable(const cli::po::variables_map &vm, sim::WorkloadKind kind);

// The help's note for `command`: "--model gpu only: --device, ... ; --model sequential only: ..."
// over the options that `desc` declares, from the same table.
std::string applicability_help(const cli::po::options_description &desc,
                               const std::string &command);

} // namespace cbi::config
