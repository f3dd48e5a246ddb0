// cbi mrc: the miss-ratio curve of a fully associative LRU cache, every size from one pass.
#include "cbi/cli/command.hpp"
#include "cbi/cli/options.hpp"
#include "cbi/config/point_options.hpp"
#include "cbi/config/presets.hpp"
#include "cbi/sim/mrc.hpp"

#include <sstream>

namespace cbi::cli {

int cmd_mrc(int argc, char **argv) {
  po::options_description desc("Options");
  config::add_workload_options(desc);
  config::add_order_options(desc);
  desc.add_options()
    ("line-bytes", po::value<std::string>(), "cache line size in bytes; default 4 elements")
    ("sizes", list_value(), "capacities in lines to report, a comma list or repeated; default "
                            "every power of two up to the distinct lines touched")
    ("verify", po::bool_switch(), "also simulate each size separately and report both counts");
  config::add_trace_option(desc);
  add_output_options(desc);
  po::variables_map vm;
  if (!config::parse_preset_args(
          argc, argv, desc, vm,
          "usage: cbi mrc [--preset NAME] [options]\n\n"
          "One pass over the trace computes every access's LRU stack distance (Fenwick tree, "
          "O(log n)),\nwhich gives the misses of a fully associative LRU cache of every size "
          "at once. --trace FILE replaces the workload options and --order.",
          "  cbi mrc --size 1024 --stencil 9x9 --line-bytes 128\n"
          "  cbi mrc --size 1024 --stencil 9x9 --line-bytes 128 --order column:32 --sizes "
          "64,256,1024\n"
          "  cbi mrc --workload matmul --size 128 --line-bytes 64 --verify --format csv\n"
          "  cbi mrc --trace kernel-1.traceg --line-bytes 128      # an Accel-Sim trace"))
    return 0;
  sim::SimConfig c = *config::sim_config(config::point_from(vm, {config::Engine::sequential, "mrc"}));
  std::vector<int64_t> sizes;
  for (const std::string &item : list_from(vm, "sizes"))
    sizes.push_back(parse_positive(item, "--sizes", 1LL << 31));
  // sim's one pass keeps per distinct line a last-use time (8 B), four Fenwick slots (16 B), a
  // compaction entry (16 B) and a distance count (8 B).
  const double lines = double(c.workload.footprint_bytes()) / double(c.levels[0].line_bytes);
  check_memory(48.0 * lines, "the curve of " + c.workload.describe() + " in " +
                                 std::to_string(c.levels[0].line_bytes) + " B lines",
               "--size", "a smaller --size or a larger --line-bytes");
  const sim::MissRatioCurve curve = sim::miss_ratio_curve(c);
  if (sizes.empty()) {
    for (int64_t s = 1; s < 2 * std::max<int64_t>(1, curve.distinct_units()); s *= 2)
      sizes.push_back(s);
  }
  const bool verify = vm["verify"].as<bool>();
  Table t;
  t.title = "cbi mrc: " + c.workload.describe() + ", order " + remap::to_string(c.order) + ", " +
            std::to_string(curve.unit_bytes) + " B lines, fully associative LRU";
  // Thread granularity: misses over each thread's distinct lines, not over accesses (as ncu).
  const bool thread = c.granularity == sim::Granularity::thread;
  t.columns = {"capacity_lines", "capacity_bytes", "misses",
               thread ? "thread_line_miss_pct" : "miss_pct"};
  if (verify)
    t.columns.insert(t.columns.end(), {"simulated_misses", "agrees"});
  for (int64_t lines : sizes) {
    const int64_t misses = curve.misses(lines);
    std::vector<Cell> row{lines, lines * curve.unit_bytes, misses,
                          curve.accesses ? 100.0 * double(misses) / double(curve.accesses) : 0.0};
    if (verify) {
      sim::SimConfig one = c;
      one.levels = {sim::CacheConfig{curve.unit_bytes, lines, 0, sim::Policy::lru}};
      const int64_t simulated = sim::simulate(one).levels[0].misses;
      row.push_back(simulated);
      row.push_back(simulated == misses);
    }
    t.add_row(row);
  }
  t.config = config::workload_fields(c.workload);
  t.config.push_back({"order", remap::to_string(c.order)});
  t.config.push_back({"granularity",
                      std::string(c.granularity == sim::Granularity::exact ? "exact" : "thread")});
  t.config.push_back({"line_bytes", int64_t{curve.unit_bytes}});
  t.meta = {{thread ? "thread_lines" : "accesses", int64_t{curve.accesses}},
            {"distinct_lines", int64_t{curve.distinct_units()}}};
  if (c.workload.user) // a trace: what was replayed, skipped and not modelled
    t.notes = c.workload.user->notes();
  emit(vm, t);
  return 0;
}

const cli::Registration kRegistration{
    {"mrc", "miss-ratio curve: misses at every LRU cache size in one pass", cmd_mrc, 20}};

} // namespace cbi::cli
