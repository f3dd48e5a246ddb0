// cbi simulate: one workload, one order, one cache hierarchy -> exact per-level counts.
#include "cbi/cli/command.hpp"
#include "cbi/cli/options.hpp"
#include "cbi/config/applicability.hpp"
#include "cbi/config/presets.hpp"
#include "cbi/config/run.hpp"

namespace cbi::cli {

int cmd_simulate(int argc, char **argv) {
  po::options_description desc("Options");
  config::add_simulate_options(desc);
  add_output_options(desc);
  po::variables_map vm;
  // --preset NAME expands to the preset's options (cbi/config/presets.hpp).
  if (!config::parse_preset_args(
          argc, argv, desc, vm,
          "usage: cbi simulate [--preset NAME] [options]\n\n"
          "Replays every memory access of a kernel (--workload: the stencil of listing 3, the "
          "matmul\nof listing 4, the 3-D stencil, the tiled kernels; or --trace FILE) in the "
          "order a thread order\nvisits the tasks, through an exact cache model, and "
          "prints per-level counts.\nDefaults are the preset table3.1-clamp-exact: Table "
          "3.1's 16x16 input, 7x7 stencil, 24 lines of\n4 elements, fully associative "
          "LRU, with listing 3's clamped edges and every access counted\n(hit rates per "
          "access, as ncu). The thesis's diagrams count each thread's distinct lines\n"
          "once and drop the boundary: --preset table3.1 (hit rates per thread-line).\n\n" +
              config::applicability_help(desc, "simulate"),
          "  cbi simulate                                   # table3.1-clamp-exact, linear\n"
          "  cbi simulate --order column:8                  # 316 -> 96 misses\n"
          "  cbi simulate --preset table3.1 --order column:4 # the thesis's figure 4.4\n"
          "  cbi simulate --size 1024x1024 --stencil 9x9 --line-bytes 128 --cache-bytes 32KiB "
          "--ways 8\n"
          "  cbi simulate --size 1024 --stencil 9x9 --level size=32KiB,line=128,ways=8 \\\n"
          "               --level size=4MiB,line=128,ways=16 --format json\n"
          "  cbi simulate --workload matmul --size 256 --order column:32 --line-bytes 128 \\\n"
          "               --cache-bytes 128KiB --sector-bytes 32\n"
          "  cbi simulate --size 256 --stencil 9x9 --line-bytes 128 --cache-bytes 32KiB "
          "--ways 4 --writes \\\n"
          "               --classify-misses\n"
          "  cbi simulate --model gpu --device h100 --block 256 --workload matmul --size 1024 "
          "--order column:32\n"
          "  cbi simulate --trace kernel-1.traceg --model gpu      # an Accel-Sim trace\n"
          "  cbi simulate --trace s.trace --line-bytes 128 --cache-bytes 32KiB --ways 8  # cbi "
          "trace"))
    return 0;
  // The options become one point (config::point_from) and run as the Python module runs them.
  emit(vm, config::simulate_result(vm));
  return 0;
}

const cli::Registration kRegistration{
    {"simulate", "replay a kernel's accesses through a cache hierarchy; count hits and misses",
     cmd_simulate, 10}};

} // namespace cbi::cli
