// The command-line options as points: every value is parsed and
// checked under its option's name (exit 2 names --ways, not cache.ways), so that a point built here
// runs as given. The commands then take their configurations from the point alone (point.hpp).
#pragma once

#include "cbi/config/point.hpp"

#include "cbi/config/applicability.hpp"
#include "cbi/config/defaults.hpp"
#include "cbi/config/options.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace cbi::config {

// A workload of your own given in code (Python's cbi.Workload, cbi.read_trace) in place of the
// workload options, as --trace gives one from the command line: it fixes the same options.
struct OwnWorkload {
  std::shared_ptr<const sim::UserWorkload> user;
  int elem_bytes = 4;
};

// What a command asks of point_from: the engine, the command (for the applicability table),
// whether --order is one order read here (false: the command reads its own list of orders), and
// the granularity when --granularity is absent (diagrams draw one column per thread).
struct PointRequest {
  Engine engine = Engine::sequential;
  std::string command = "simulate";
  bool order = true;
  sim::Granularity granularity = sim::Granularity::exact;
  // Called as --trace's checking pass reads the file (thread blocks checked, the grid's blocks):
  // progress, and the caller's interrupt, which may throw to stop it (Python's Ctrl-C).
  std::function<void(int64_t, int64_t)> trace_progress = {};
};

// The one way from parsed options to a point, for simulate, mrc, analyze, tune, diagram and view:
// options that do not apply to the engine are refused first (applicability.hpp); then the
// workload (--workload --size --stencil --depth --type --boundary --writes), --order, and
// for the sequential engine --granularity, --classify-misses and the cache (the single-level
// options or --level, as level specs: level_spec), for the GPU model --device, --block and
// --sample-sms (defaults.hpp). Every value is checked under its option's name. `own`: a workload
// of your own in place of the workload options (--trace is the command line's).
Point point_from(const cli::po::variables_map &vm, const PointRequest &request,
                 const OwnWorkload &own = {});

// bench's lists (--kernel --order --block-order --remap-math --type) crossed with its sizes and
// block: one point per combination that applies to its kernel (an order for remapped kernels, a
// block order for block-ordered ones). In a list, a combination whose kernel lacks the type
// (sgemm-tiled in half) is left out with a note; a single combination must be valid.
struct BenchPoints {
  std::vector<Point> points;
  std::vector<std::string> notes;
};
BenchPoints bench_points(const cli::po::variables_map &vm);

// A window (--stencil) that no kernel of `kinds` has, an inner dimension (--depth) that none has,
// or --remap-math where none maps its threads through an order, is refused naming the option, not
// ignored: bench's and sweep's kernel lists (bench --kernel cublas --remap-math div ran cublas).
void refuse_unused_kernel_axes(const cli::po::variables_map &vm,
                               const std::vector<kernels::KernelKind> &kinds);

// bench's measurement settings (--no-check --no-time --metrics --cold --min-samples --max-noise
// --max-seconds --seed): how to measure a point, not what runs, so they stay off the point. The
// configuration's other fields keep their defaults.
kernels::BenchConfig measurement_from(const cli::po::variables_map &vm);
// --max-noise (stdev/mean, 0 to 1e6) and --max-seconds (> 0, up to 1e6), one range and one
// message in bench and sweep: a UsageError naming the option otherwise.
double parse_max_noise(const std::string &text);
double parse_max_seconds(const std::string &text);
// --min-samples (1 to 2^20), the same range in bench and sweep.
int parse_min_samples(const std::string &text);
// `c` (a point's configuration) measured as `m` says.
kernels::BenchConfig with_measurement(kernels::BenchConfig c, const kernels::BenchConfig &m);

} // namespace cbi::config
