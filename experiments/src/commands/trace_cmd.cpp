// cbi trace: a built-in workload visited in a thread order, written as cbi's trace (docs/traces.md)
// that `cbi simulate --trace` and `cbi mrc --trace` replay with the same counts.
#include "cbi/cli/command.hpp"
#include "cbi/cli/options.hpp"
#include "cbi/cli/output_stream.hpp"
#include "cbi/cli/progress.hpp"
#include "cbi/config/point_options.hpp"
#include "cbi/error.hpp"
#include "cbi/order_text.hpp"
#include "cbi/parse.hpp"
#include "cbi/sim/simulate.hpp"
#include "cbi/sim/trace.hpp"

namespace cbi::cli {

int cmd_trace(int argc, char **argv) {
  po::options_description desc("Options");
  config::add_workload_options(desc);
  // clang-format off
  desc.add_options()
    ("order", po::value<std::string>(), "thread order (cbi simulate --help); default linear")
    ("block", po::value<std::string>(), "threads per block, 1..1024, default 256: thread blocks "
                                        "and 32-lane warps as the GPU model forms them")
    ("output,o", po::value<std::string>(), "the trace file (required; - is stdout); a regular file "
                                           "is replaced atomically");
  // clang-format on
  po::variables_map vm;
  if (!parse_args(
          argc, argv, desc, vm,
          "usage: cbi trace [workload options] [--order O] [--block B] -o FILE\n\n"
          "Writes every memory instruction of every warp of a built-in workload, visited "
          "in a thread\norder, as cbi's trace (docs/traces.md). `cbi simulate --trace FILE` "
          "(sequential and --model gpu)\nand `cbi mrc --trace FILE` replay it with the "
          "counts of the direct run (with --writes for the\nGPU model, whose kernels store "
          "their output).",
          "  cbi trace --size 256 --stencil 9x9 --order column:32 -o s.trace\n"
          "  cbi simulate --trace s.trace --line-bytes 128 --cache-bytes 32KiB --ways 8\n"
          "  cbi trace --workload matmul --size 128 --writes --block 128 -o m.trace\n"
          "  cbi simulate --trace m.trace --model gpu"))
    return 0;
  if (!has(vm, "output"))
    throw UsageError("--output", "the trace file is required; allowed: -o FILE or - for stdout");
  require_format_of_path(get(vm, "output", ""), "--output", "trace"); // t.json is no JSON
  // The point as the GPU model would run it: its workload, order and blocks.
  const config::Point p = config::point_from(vm, {config::Engine::gpu_model, "trace"});
  const sim::Workload w = config::workload_of(p);
  sim::validate(*p.order);
  // Each warp instruction takes 17 B or more in the file (10 counted here), and a warp's 32 lanes
  // make one: --size 100000 wrote hundreds of GiB until the disk was full.
  check_disk_space(10.0 * double(w.accesses()) / 32.0, get(vm, "output", ""),
                   "the trace of " + w.describe(), "--size", "a smaller --size");
  // A trace of more than 2^30 accesses takes a minute or more (about 270 million a second, and
  // the disk's pace): said up front, with progress (it wrote tens of GiB in silence).
  announce_long_run("cbi trace", double(w.accesses()), "a smaller --size", 3e7, 3e8);
  const sim::Progress shown = long_run(double(w.accesses())) ? thread_counter() : sim::Progress();
  write_stream_atomic(get(vm, "output", ""), [&](std::ostream &os) {
    sim::write_trace(os, w, *p.order, p.block_threads, shown);
  });
  return 0;
}

const cli::Registration kTraceRegistration{
    {"trace", "write a workload's memory instructions, warp by warp, as cbi's trace file",
     cmd_trace, 15}};

} // namespace cbi::cli
