// cbi mrc: the miss-ratio curve of a fully associative LRU cache, every size from one pass.
#include "cbi/cli/command.hpp"
#include "cbi/cli/options.hpp"
#include "cbi/config/presets.hpp"
#include "cbi/config/run.hpp"

namespace cbi::cli {

int cmd_mrc(int argc, char **argv) {
  po::options_description desc("Options");
  config::add_mrc_options(desc);
  add_output_options(desc);
  po::variables_map vm;
  if (!config::parse_preset_args(
          argc, argv, desc, vm,
          "usage: cbi mrc [--preset NAME] [options]\n\n"
          "One pass over the trace computes every access's LRU stack distance (Fenwick tree, "
          "O(log n)),\nwhich gives the misses of a fully associative LRU cache of every size "
          "at once.\n--trace FILE replaces the workload options and --order.",
          "  cbi mrc --size 1024 --stencil 9x9 --line-bytes 128\n"
          "  cbi mrc --size 1024 --stencil 9x9 --line-bytes 128 --order column:32 --sizes "
          "64,256,1024\n"
          "  cbi mrc --workload matmul --size 128 --line-bytes 64 --verify --format csv\n"
          "  cbi mrc --trace kernel-1.traceg --line-bytes 128      # an Accel-Sim trace"))
    return 0;
  emit(vm, config::mrc_result(vm)); // run as the Python module runs it
  return 0;
}

const cli::Registration kRegistration{
    {"mrc", "miss-ratio curve: misses at every LRU cache size in one pass", cmd_mrc, 20}};

} // namespace cbi::cli
