#include "trace_options.hpp"

#include "cbi/error.hpp"
#include "cbi/sim/trace.hpp"

namespace cbi::sweep {

void add_trace_option(cli::po::options_description &desc) {
  desc.add_options()("trace", cli::po::value<std::string>(),
                     "replay this trace instead of a built-in workload: cbi's (cbi trace) or an "
                     "Accel-Sim kernel trace (kernel-N.traceg); docs/traces.md");
}

std::optional<sim::Workload> trace_workload(const cli::po::variables_map &vm) {
  if (!cli::has(vm, "trace"))
    return std::nullopt;
  // What the trace fixes: its kernel, sizes, thread order and thread blocks.
  for (const char *fixed : {"workload", "size", "stencil", "depth", "elem-bytes", "boundary",
                            "order", "preset", "block"})
    if (cli::has(vm, fixed))
      throw UsageError(std::string("--") + fixed,
                       std::string("a trace fixes the workload, its order and its blocks; "
                                   "allowed: --trace without --") +
                           fixed);
  if (vm.count("writes") && vm["writes"].as<bool>())
    throw UsageError("--writes", "a trace holds its own stores; allowed: --trace without --writes");
  const auto trace = sim::open_trace(cli::get(vm, "trace", ""));
  return sim::make_workload(trace, sim::trace_info(*trace)->elem_bytes);
}

std::vector<std::string> trace_notes(const sim::Workload &w) {
  return w.user ? w.user->notes() : std::vector<std::string>{};
}

} // namespace cbi::sweep
