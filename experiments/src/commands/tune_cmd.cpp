// cbi tune: ranks thread orders by the GPU model's predicted time on one device, workload and block
// (issue 10 §3, issue 18 §3): distinct candidates, a staged search, progress on stderr, and tie
// groups from the model's validated time error, each row with the bound that sets its time. The
// search is sim::tune, reached through config::tune_result as cbi.tune in Python reaches it; this
// file parses and prints.
#include "cbi/cli/command.hpp"
#include "cbi/cli/options.hpp"
#include "cbi/config/tune.hpp"
#include "cbi/sim/workloads.hpp"

#include <cmath>
#include <cstdio>
#include <string>

namespace cbi::cli {

namespace {
// A family's tie tolerance as cbi tune prints it (tie_tolerance_pct), e.g. "8.7%".
std::string tolerance_pct(sim::WorkloadKind kind) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * std::expm1(sim::validated_time_error(kind)));
  return buf;
}
} // namespace

int cmd_tune(int argc, char **argv) {
  po::options_description desc("Options");
  config::add_tune_options(desc);
  add_output_options(desc);
  po::variables_map vm;
  if (!parse_args(
          argc, argv, desc, vm,
          "usage: cbi tune [--device NAME] [--workload W --size ...] [--block B] "
          "[--order LIST]\n                [--search staged|full]\n"
          "       cbi tune --kernel sgemm-tiled|stencil-smem --size ... [--block-order "
          "LIST]\n\n"
          "Replays the workload under each thread order with the simulator's GPU model "
          "(docs/gpu-model.md)\nand ranks the orders by predicted time, fastest first.\n"
          "The default search is full (every order on the full device) where its estimated\n"
          "time is at most 20 s on the threads it gets (--jobs, else the host's cores; about "
          "130 ns\nper warp load and 5 us per warp on one core of an AMD EPYC) or its orders "
          "replay at most\n2^32 accesses in all, else staged.\n"
          "Stage one replays every order on 12 sampled SMs (--sample-sms; each stands for "
          "SMs/12).\n"
          "Stage two replays stage one's fastest 4 (--finalists) on the full device "
          "(--final-sms 0), and\n"
          "as many again while they all tie with the fastest, and linear, the kernel as "
          "written, where\n"
          "stage one left it out (stage one over-predicts it where neighbouring CTAs share rows "
          "in L2:\n"
          "43-49% on DRAM-heavy stencils): these rows are ranked with tie groups and\n"
          "their replay column says \"full\"; the others keep stage one's prediction "
          "(\"sampled 12 SMs\").\n"
          "Validated on 26 H100 groups of 13-14 measured orders (docs/results/"
          "gpu-model-speed.md):\n"
          "the staged search picks the full search's order in 23, one measured within 1% of it "
          "in 24.\n"
          "A sampled stage two (--final-sms 33) is faster but not validated: another pick in 9 "
          "of 26.\n"
          "--search full replays every order on the full device.\n"
          "Orders within the model's validated time error of the\n"
          "fastest form tie group 1, indistinguishable by the model: the error is that of its "
          "predicted\n"
          "ratio of two orders' times (docs/results/tight/tie-tolerance.md: " +
              tolerance_pct(sim::kind_of<sim::MatmulWorkload>()) + " for matmul, " +
              tolerance_pct(sim::kind_of<sim::StencilWorkload>()) +
              " for\n"
              "stencils, " +
              tolerance_pct(sim::kind_of<sim::StencilSmemWorkload>()) + "-" +
              tolerance_pct(sim::kind_of<sim::SgemmTiledWorkload>()) +
              " for the tiled kernels). Each row names the bound that sets its "
              "time and\n"
              "why it is slower than the fastest. The tiled kernels keep their threads' launch "
              "order: tune\n"
              "ranks the order of their thread blocks over the tiles, on the full device "
              "(--block-order LIST;\n"
              "default: linear, column:2..64, tile:4x4, tile:8x8, tile:1x8 as Triton's GROUP_M=8,\n"
              "zigzag:8, zigzag:16, less those equal to linear on the grid of tiles).",
          "  cbi tune --device h100 --workload matmul --size 1024 --block 256   # minutes\n"
          "  cbi tune --device h100 --workload matmul --size 256 --block 256    # seconds\n"
          "  cbi tune --workload stencil --size 4096 --stencil 9x9 --order "
          "linear,column:32,zigzag:32 \\\n"
          "      --format json\n"
          "  cbi tune --kernel sgemm-tiled --size 4096 --block-order "
          "linear,column:8,tile:1x8"))
    return 0;
  emit(vm, config::tune_result(vm));
  return 0;
}

const cli::Registration kTuneRegistration{
    {"tune", "rank thread orders by the GPU model's predicted time (--device, --block)", cmd_tune,
     13}};

} // namespace cbi::cli
